#!/usr/bin/env python3
"""A hostile HTTP/1.1 server for tests/crawl_hostile.sh and
tests/crawl_disk.sh: each path is one
answer that tries to make a crawler use memory, disk or time without bound.

    hostile_server.py PORTFILE

binds 127.0.0.1 on an ephemeral port, writes the port to PORTFILE and
serves until it is killed. An answer that never ends is written until the
client closes the connection. Each request's path is printed on stdout.
/big is a 3 MB page, /slow/N a chain of pages a tenth of a second each;
/robots.txt is a 404; an unknown path a small
page.
"""
import gzip
import os
import socketserver
import sys
import time

BLOCK = 64 * 1024
MB = 1024 * 1024

HEAD_200 = (b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n"
            b"Connection: close\r\n")


def forever(w, chunk):
    """Writes chunk again and again until the peer goes away."""
    while True:
        w.write(chunk)


def page(w, body, extra=b""):
    w.write(HEAD_200 + extra + b"Content-Length: %d\r\n\r\n" % len(body))
    w.write(body)


def a_trailers(w):
    # A 5-byte chunked body, then trailer lines of 1 MB each for ever.
    w.write(b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n"
            b"Transfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n")
    line = b"X-Trailer: " + b"t" * MB + b"\r\n"
    forever(w, line)


def a_chunkext(w):
    # A chunk-size line whose extension never ends.
    w.write(b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
            b"5\r\nhello\r\n5;ext=")
    forever(w, b"e" * BLOCK)


def a_chunkzeros(w):
    # A chunk size of endless leading zeros.
    w.write(b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n")
    forever(w, b"0" * BLOCK)


def a_status(w):
    w.write(b"HTTP/1.1 200 ")
    forever(w, b"O" * BLOCK)


def a_hname(w):
    w.write(b"HTTP/1.1 200 OK\r\nX-")
    forever(w, b"n" * BLOCK)


def a_hvalue(w):
    w.write(b"HTTP/1.1 200 OK\r\nX-Value: ")
    forever(w, b"v" * BLOCK)


def a_headers(w):
    # Short header lines, for ever: the count, not the size, is the limit
    # hit first.
    w.write(b"HTTP/1.1 200 OK\r\n")
    forever(w, b"X-A: 1\r\n" * (BLOCK // 8))


def a_continue(w):
    forever(w, b"HTTP/1.1 100 Continue\r\n\r\n" * 1000)


def a_endless(w):
    # A body delimited by the end of the connection, which never comes.
    w.write(b"HTTP/1.1 200 OK\r\nContent-Type: application/octet-stream\r\n"
            b"Connection: close\r\n\r\n")
    forever(w, b"b" * BLOCK)


def a_endless_chunked(w):
    w.write(b"HTTP/1.1 200 OK\r\nContent-Type: application/octet-stream\r\n"
            b"Transfer-Encoding: chunked\r\n\r\n")
    forever(w, b"%x\r\n" % BLOCK + b"c" * BLOCK + b"\r\n")


def a_drip(w):
    # A whole head, then a body of 100000 bytes at one byte a second.
    w.write(HEAD_200 + b"Content-Length: 100000\r\n\r\n")
    while True:
        w.write(b"d")
        time.sleep(1)


def a_driphead(w):
    # The head itself, a byte a second.
    for c in b"HTTP/1.1 200 OK\r\nX-Slow: " + b"s" * 100000:
        w.write(bytes([c]))
        time.sleep(1)


def a_links(w):
    # 1.2 million links in a 20 MB page, every one to a host out of scope.
    parts = [b"<!DOCTYPE html><html><body>\n"]
    for i in range(1200000):
        parts.append(b'<a href="http://x.invalid/%d">.</a>\n' % i)
    parts.append(b"</body></html>\n")
    page(w, b"".join(parts))


def a_longuri(w):
    # Links of 1 MB each (crawl.max-uri-length is 2083 by default).
    body = b"<!DOCTYPE html><html><body>\n"
    for i in range(8):
        body += b'<a href="/long/%d/' % i + b"u" * MB + b'">.</a>\n'
    body += b'<base href="/' + b"b" * MB + b'/">\n<a href="x">x</a></body></html>\n'
    page(w, body)


# 128 MB of zeros, gzipped to about 128 KB: past both decoding caps (32 MB
# out, 200 times the input).
def slow(w, path):
    # /slow/N: a small page a tenth of a second late, linking to N+1, up
    # to /slow/100: a crawl that lasts about ten seconds.
    n = int(path[6:]) if path[6:].isdigit() else 0
    time.sleep(0.1)
    nxt = b'<a href="/slow/%d">next</a>' % (n + 1) if n < 100 else b""
    page(w, b"<html><body>page %d " % n + b"s" * 4000 + nxt + b"</body></html>\n")


BOMB = gzip.compress(b"\0" * (128 * MB), 9)


def a_gzipbomb(w):
    page(w, BOMB, b"Content-Encoding: gzip\r\n")


def a_big(w):
    # A 3 MB page: past the 1 MiB a visit keeps in memory, so it spills.
    page(w, b"<html><body>" + b"B" * (3 * MB) + b"</body></html>\n")


ANSWERS = {
    "/big": a_big,
    "/trailers": a_trailers,
    "/chunkext": a_chunkext,
    "/chunkzeros": a_chunkzeros,
    "/status": a_status,
    "/hname": a_hname,
    "/hvalue": a_hvalue,
    "/headers": a_headers,
    "/continue": a_continue,
    "/endless": a_endless,
    "/endless-chunked": a_endless_chunked,
    "/drip": a_drip,
    "/driphead": a_driphead,
    "/links": a_links,
    "/longuri": a_longuri,
    "/gzipbomb": a_gzipbomb,
}


class Handler(socketserver.StreamRequestHandler):
    def handle(self):
        line = self.rfile.readline(65536)
        while True:
            h = self.rfile.readline(65536)
            if h in (b"\r\n", b"\n", b""):
                break
        parts = line.split()
        path = parts[1].decode("latin-1") if len(parts) > 1 else "/"
        sys.stdout.write(path + "\n")
        sys.stdout.flush()
        try:
            if path.startswith("/slow/"):
                slow(self.wfile, path)
            elif path == "/robots.txt":
                self.wfile.write(b"HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n"
                                 b"Connection: close\r\n\r\n")
            elif path in ANSWERS:
                ANSWERS[path](self.wfile)
            else:
                page(self.wfile, b"<html><body>hello</body></html>\n")
            self.wfile.flush()
        except OSError:
            pass


class Server(socketserver.ThreadingTCPServer):
    daemon_threads = True
    allow_reuse_address = True


def main():
    srv = Server(("127.0.0.1", 0), Handler)
    with open(sys.argv[1] + ".tmp", "w") as f:
        f.write("%d\n" % srv.server_address[1])
    os.rename(sys.argv[1] + ".tmp", sys.argv[1])
    srv.serve_forever()


if __name__ == "__main__":
    main()
