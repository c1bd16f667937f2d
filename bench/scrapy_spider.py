# Scrapy peer for bench/run: a CrawlSpider that follows every link inside
# the test web, with the settings the benchmark matches across tools (no
# delay, one request in flight per host, robots.txt obeyed, concurrency C).
#
#   python3 -m scrapy runspider bench/scrapy_spider.py \
#       -a seeds=SEEDS_FILE -s CONCURRENT_REQUESTS=C [-s CLOSESPIDER_TIMEOUT=S]
#
# Names resolve through the system resolver (bench/run points it at the
# benchmark's dnsmasq in a private mount namespace). Pages are counted from
# the test web's request log, not from Scrapy's stats.
from scrapy.linkextractors import LinkExtractor
from scrapy.spiders import CrawlSpider, Rule


class BenchSpider(CrawlSpider):
    name = "tern-bench"
    allowed_domains = ["web.test"]
    # LinkExtractor(allow_domains=...) of Scrapy 2.8 compares the netloc,
    # port included, so it would reject every link of the test web (which
    # runs on a high port); the offsite middleware (by host name) keeps the
    # crawl inside web.test instead.
    rules = (Rule(LinkExtractor(), follow=True),)
    custom_settings = {
        "CONCURRENT_REQUESTS": 100,
        "CONCURRENT_REQUESTS_PER_DOMAIN": 1,
        "CONCURRENT_REQUESTS_PER_IP": 0,
        "DOWNLOAD_DELAY": 0,
        "RANDOMIZE_DOWNLOAD_DELAY": False,
        "AUTOTHROTTLE_ENABLED": False,
        "ROBOTSTXT_OBEY": True,
        "COOKIES_ENABLED": False,
        "RETRY_ENABLED": False,
        "DEPTH_LIMIT": 0,
        "LOG_LEVEL": "WARNING",
        "TELNETCONSOLE_ENABLED": False,
        "SCHEDULER_PRIORITY_QUEUE": "scrapy.pqueues.DownloaderAwarePriorityQueue",
        # Broad-crawl advice from Scrapy's documentation: breadth-first order
        # and a resolver pool large enough for many hosts.
        "DEPTH_PRIORITY": 1,
        "SCHEDULER_DISK_QUEUE": "scrapy.squeues.PickleFifoDiskQueue",
        "SCHEDULER_MEMORY_QUEUE": "scrapy.squeues.FifoMemoryQueue",
        "REACTOR_THREADPOOL_MAXSIZE": 20,
        "DOWNLOAD_TIMEOUT": 60,
    }

    def __init__(self, seeds=None, *args, **kwargs):
        super().__init__(*args, **kwargs)
        with open(seeds) as f:
            self.start_urls = [line.strip() for line in f if line.strip()]
