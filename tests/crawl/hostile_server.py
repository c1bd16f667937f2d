#!/usr/bin/env python3
"""A hostile HTTP/1.1 server for tests/crawl/crawl_hostile.sh and
tests/crawl/crawl_disk.sh: each path is one
answer that tries to make a crawler use memory, disk or time without bound.

    hostile_server.py PORTFILE [CERT KEY]

binds 127.0.0.1 on an ephemeral port (and, given a certificate and its
key, a second one for HTTPS), writes the port (then the HTTPS port) to
PORTFILE and serves until it is killed. An answer that never ends is written until the
client closes the connection. Each request is printed on stdout as its
scheme and path ("http /big").
/big is a 3 MB page, /slow/N a chain of pages a tenth of a second each;
/robots.txt is a 404; an unknown path a small
page.
"""
import gzip
import os
import random
import socket
import socketserver
import ssl
import struct
import sys
import threading
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


# The soak (tests/crawl/crawl_soak.sh): /mut/ and /mut/index/K list /mut/K ..
# /mut/K+49 and the next index, up to MUT_PAGES; /mut/N answers one mutation of a valid
# response, chosen by N so that a run can be repeated.
MUT_PAGES = int(os.environ.get("HOSTILE_MUT_PAGES", "400"))


def mut_page(n):
    links = b"".join(b'<a href="/mut/%d">%d</a>\n' % ((n * 7 + i) % MUT_PAGES, i)
                     for i in range(3))
    return b"<html><body>mutation %d " % n + b"m" * 2000 + links + b"</body></html>\n"


def mut_index(w, k):
    body = b"<html><body>"
    for n in range(k, min(k + 50, MUT_PAGES)):
        body += b'<a href="/mut/%d">%d</a>\n' % (n, n)
    if k + 50 < MUT_PAGES:
        body += b'<a href="/mut/index/%d">next</a>\n' % (k + 50)
    page(w, body + b"</body></html>\n")


def mut_reset(sock):
    # An RST rather than a FIN: SO_LINGER with a zero timeout.
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    sock.close()


def mut_close(sock):
    # Over TLS the connection ends early with a close_notify alert, as a
    # clean end would; over TCP with a reset.
    if isinstance(sock, ssl.SSLSocket):
        try:
            sock.unwrap().close()
        except (OSError, ssl.SSLError):
            sock.close()
    else:
        mut_reset(sock)


def mutate(h, n):
    w, sock = h.wfile, h.request
    rng = random.Random(n)
    body = mut_page(n)
    gz = gzip.compress(body)
    head = b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n"
    kind = n % 20
    if kind == 0:  # valid
        page(w, body)
    elif kind == 1:  # Content-Length one too many, then the close
        w.write(head + b"Content-Length: %d\r\n\r\n" % (len(body) + 1) + body)
    elif kind == 2:  # one too few: a stray byte follows
        w.write(head + b"Content-Length: %d\r\n\r\n" % (len(body) - 1) + body)
    elif kind == 3:  # a chunk size that is not hex
        w.write(head + b"Transfer-Encoding: chunked\r\n\r\nzz\r\n" + body)
    elif kind == 4:  # a chunk larger than what comes, then the close
        w.write(head + b"Transfer-Encoding: chunked\r\n\r\n%x\r\n" % (len(body) + 100)
                + body)
    elif kind == 5:  # the head split in one-byte writes
        for c in head + b"Content-Length: %d\r\n\r\n" % len(body):
            w.write(bytes([c]))
            time.sleep(0.001)
        w.write(body)
    elif kind == 6:  # a reset in the middle of the head; over TLS, close_notify
        w.write(head[:rng.randrange(1, len(head))])
        w.flush()
        mut_close(sock)
    elif kind == 7:  # gzip cut short
        cut = gz[:len(gz) // 2]
        w.write(head + b"Content-Encoding: gzip\r\nContent-Length: %d\r\n\r\n" % len(cut)
                + cut)
    elif kind == 8:  # gzip with bytes flipped
        bad = bytearray(gz)
        for _ in range(8):
            i = rng.randrange(10, len(bad))
            bad[i] ^= 0xff
        w.write(head + b"Content-Encoding: gzip\r\nContent-Length: %d\r\n\r\n" % len(bad)
                + bytes(bad))
    elif kind == 9:  # a redirect to itself
        w.write(b"HTTP/1.1 302 Found\r\nLocation: /mut/%d\r\nContent-Length: 0\r\n\r\n" % n)
    elif kind == 10:  # a redirect to another mutation
        w.write(b"HTTP/1.1 301 Moved\r\nLocation: /mut/%d\r\nContent-Length: 0\r\n\r\n"
                % ((n + 1) % MUT_PAGES))
    elif kind == 11:  # tiny writes with pauses (a small window)
        data = head + b"Content-Length: %d\r\n\r\n" % len(body) + body
        for i in range(0, len(data), 97):
            w.write(data[i:i + 97])
            time.sleep(0.0005)
    elif kind == 12:  # headers near the limit
        w.write(head + b"".join(b"X-F%d: %s\r\n" % (i, b"f" * 900) for i in range(70))
                + b"Content-Length: %d\r\n\r\n" % len(body) + body)
    elif kind == 13:  # interim answers first
        w.write(b"HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 103 Early Hints\r\nLink: </x>\r\n\r\n")
        page(w, body)
    elif kind == 14:  # nothing at all
        pass
    elif kind == 15:  # HTTP/1.0, delimited by the close
        w.write(b"HTTP/1.0 200 OK\r\nContent-Type: text/html\r\n\r\n" + body)
    elif kind == 16:  # a reset in the middle of the body
        w.write(head + b"Content-Length: %d\r\n\r\n" % len(body) + body[:len(body) // 3])
        w.flush()
        mut_close(sock)
    elif kind == 17:  # chunked, with extensions and trailers
        w.write(head + b"Transfer-Encoding: chunked\r\n\r\n%x;a=b\r\n" % len(body) + body
                + b"\r\n0\r\nX-Trailer: t\r\n\r\n")
    elif kind == 18:  # a malformed status line
        w.write(b"HTTP/1.1 2OO OK\r\nContent-Length: 2\r\n\r\nok")
    else:  # a gzip body, whole, in chunks
        w.write(head + b"Content-Encoding: gzip\r\nTransfer-Encoding: chunked\r\n\r\n")
        for i in range(0, len(gz), 512):
            part = gz[i:i + 512]
            w.write(b"%x\r\n" % len(part) + part + b"\r\n")
        w.write(b"0\r\n\r\n")


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
        try:
            line = self.rfile.readline(65536)
            while True:
                h = self.rfile.readline(65536)
                if h in (b"\r\n", b"\n", b""):
                    break
        except OSError:
            return  # a failed TLS handshake, a client gone
        parts = line.split()
        path = parts[1].decode("latin-1") if len(parts) > 1 else "/"
        scheme = "https" if isinstance(self.request, ssl.SSLSocket) else "http"
        sys.stdout.write(scheme + " " + path + "\n")
        sys.stdout.flush()
        try:
            if path == "/mut/":
                mut_index(self.wfile, 0)
            elif path.startswith("/mut/index/"):
                mut_index(self.wfile, int(path[11:]))
            elif path.startswith("/mut/") and path[5:].isdigit():
                mutate(self, int(path[5:]))
            elif path.startswith("/slow/"):
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


class TLSServer(Server):
    def __init__(self, addr, handler, cert, key):
        Server.__init__(self, addr, handler)
        self.ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        self.ctx.load_cert_chain(cert, key)

    def get_request(self):
        sock, addr = self.socket.accept()
        # The handshake runs in the request's thread, at its first read.
        return self.ctx.wrap_socket(sock, server_side=True,
                                    do_handshake_on_connect=False), addr


def main():
    srv = Server(("127.0.0.1", 0), Handler)
    ports = ["%d" % srv.server_address[1]]
    if len(sys.argv) > 3:
        tls = TLSServer(("127.0.0.1", 0), Handler, sys.argv[2], sys.argv[3])
        ports.append("%d" % tls.server_address[1])
        threading.Thread(target=tls.serve_forever, daemon=True).start()
    with open(sys.argv[1] + ".tmp", "w") as f:
        f.write(" ".join(ports) + "\n")
    os.rename(sys.argv[1] + ".tmp", sys.argv[1])
    srv.serve_forever()


if __name__ == "__main__":
    main()
