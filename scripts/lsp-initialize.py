#!/usr/bin/env python3
"""Starts a language server and takes it through one initialize/shutdown/exit
round over stdio, as an editor does first: the quickest proof that an installed
`silp-lsp` (from a wheel, a .vsix, ...) runs where it landed.

usage: scripts/lsp-initialize.py SERVER [ARGS...]

Prints the server's name, version and the capabilities it announced, and exits 0
when the server answered both requests and then exited with status 0 by itself.
"""
import json
import subprocess
import sys
import threading

TIMEOUT = 30  # seconds for the whole round; a cold start takes milliseconds


def send(stdin, message):
    body = json.dumps({"jsonrpc": "2.0", **message}).encode("utf-8")
    stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
    stdin.flush()


def receive(stdout):
    length = None
    while True:
        line = stdout.readline()
        if not line:
            raise RuntimeError("the server closed its output")
        line = line.strip()
        if not line:
            break
        name, _, value = line.decode("ascii").partition(":")
        if name.lower() == "content-length":
            length = int(value)
    return json.loads(stdout.read(length))


def response(stdout, request_id):
    """The response to `request_id`, past any notification the server sends first."""
    while True:
        message = receive(stdout)
        if message.get("id") == request_id and "method" not in message:
            if "error" in message:
                raise RuntimeError(f"request {request_id} failed: {message['error']}")
            return message.get("result")


def main():
    if len(sys.argv) < 2:
        sys.exit("usage: scripts/lsp-initialize.py SERVER [ARGS...]")
    try:
        server = subprocess.Popen(sys.argv[1:], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    except OSError as error:
        sys.exit(f"{sys.argv[1]}: cannot start: {error.strerror}")
    killer = threading.Timer(TIMEOUT, server.kill)
    killer.start()
    try:
        send(server.stdin, {"id": 1, "method": "initialize",
                            "params": {"processId": None, "rootUri": None, "capabilities": {}}})
        result = response(server.stdout, 1)
        send(server.stdin, {"method": "initialized", "params": {}})
        send(server.stdin, {"id": 2, "method": "shutdown"})
        response(server.stdout, 2)
        send(server.stdin, {"method": "exit"})
        server.stdin.close()
        status = server.wait()
    except (RuntimeError, OSError, ValueError) as error:
        server.kill()
        sys.exit(f"{sys.argv[1]}: {error}")
    finally:
        killer.cancel()
    if status != 0:
        sys.exit(f"{sys.argv[1]}: exited with status {status} after shutdown and exit")
    info = result.get("serverInfo", {})
    capabilities = sorted(result["capabilities"])
    print(f"{info.get('name', '?')} {info.get('version', '?')}: initialize, shutdown, exit 0; "
          f"{len(capabilities)} capabilities ({', '.join(capabilities)})")


if __name__ == "__main__":
    main()
