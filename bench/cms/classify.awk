# URL patterns of a WordPress site, for bench/cms/compare.sh: cls(HOST, URI)
# names the kind of a request (URI as nginx logs it: path and query).
# The first pattern that matches decides; the order puts the CMS machinery
# (reply forms, oEmbed, REST, feeds, shortlinks) before the content.
function cls(host, uri,    i, p, q) {
	if (host !~ /^www\./)
		return "bare-name redirects (blog.test)"
	p = uri
	q = ""
	i = index(uri, "?")
	if (i) {
		p = substr(uri, 1, i - 1)
		q = substr(uri, i + 1)
	}
	if (q ~ /(^|&)replytocom=/)
		return "?replytocom= reply forms"
	if (p ~ /^\/wp-json\/oembed\//)
		return "oEmbed (/wp-json/oembed/)"
	if (p ~ /^\/wp-json(\/|$)/ || q ~ /(^|&)rest_route=/)
		return "REST API (/wp-json/)"
	if (p ~ /\/feed(\/(rss|rss2|rdf|atom))?\/?$/ || q ~ /(^|&)feed=/)
		return "feeds"
	if (p == "/" && q ~ /^p=[0-9]+$/)
		return "?p= shortlinks"
	if (p ~ /^\/xmlrpc\.php/)
		return "xmlrpc.php (RSD)"
	if (p ~ /\/wlwmanifest\.xml$/)
		return "wlwmanifest.xml"
	if (p ~ /^\/wp-(login|admin|signup|activate|comments-post)/)
		return "login and admin"
	if (p == "/robots.txt")
		return "robots.txt"
	if (p ~ /^\/wp-sitemap.*\.(xml|xsl)$/)
		return "sitemaps (wp-sitemap*.xml, .xsl)"
	if (p ~ /^\/wp-content\/uploads\//)
		return p ~ /-[0-9]+x[0-9]+\.[A-Za-z]+$/ ? "images: generated sizes" : "images: originals"
	if (p ~ /^\/wp-(includes|content)\//)
		return "theme and core assets (CSS, JS, fonts)"
	if (p ~ /\/page\/[0-9]+\/?$/)
		return "archive pagination (/page/N/)"
	if (p ~ /\/comment-page-[0-9]+\/?$/)
		return "comment pages"
	if (p ~ /^\/[0-9][0-9][0-9][0-9]\/[0-9][0-9]\/[0-9][0-9]\/[^\/]+\/[^\/]+\/?$/)
		return "attachment pages"
	if (p ~ /^\/[0-9][0-9][0-9][0-9]\/[0-9][0-9]\/[0-9][0-9]\/[^\/]+\/?$/)
		return "posts"
	if (p ~ /^\/[0-9][0-9][0-9][0-9]\/([0-9][0-9]\/([0-9][0-9]\/)?)?$/)
		return "date archives"
	if (p ~ /^\/category\//)
		return "category archives"
	if (p ~ /^\/tag\//)
		return "tag archives"
	if (p ~ /^\/author\//)
		return "author archives"
	if (p == "/" && q == "")
		return "home"
	if (q == "")
		return "pages and other paths"
	return "other queries"
}

# Whether a kind is CMS machinery rather than content.
function machinery(c) {
	return c ~ /^(\?replytocom|oEmbed|REST API|feeds|\?p= shortlinks|xmlrpc|wlwmanifest|login)/
}
