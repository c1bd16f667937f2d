-- wrk script for bench/run: every request asks a random host of the test web
-- for a random page, as a crawl spreads over hosts, with the Accept-Encoding
-- the crawlers send.   wrk ... -s bench/wrk_random.lua -- HOSTS PAGES [https]
local hosts, pages = 200, 200

function init(args)
	hosts = tonumber(args[1]) or hosts
	pages = tonumber(args[2]) or pages
	math.randomseed(os.time() + math.floor(os.clock() * 1e6))
end

function request()
	local h = math.random(0, hosts - 1)
	local p = math.random(0, pages - 1)
	local path = "/"
	if p > 0 then
		path = "/p/" .. p .. ".html"
	end
	return wrk.format("GET", path, {
		["Host"] = "h" .. h .. ".web.test",
		["Accept-Encoding"] = "gzip",
	})
end
