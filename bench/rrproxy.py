"""A small round-robin TCP proxy for the scale-out benchmark: each new connection goes to the next backend.

HTTP keep-alive connections stay on the backend they were given, like a layer-4 load balancer.

    python bench/rrproxy.py --listen 127.0.0.1:9000 --backend 127.0.0.1:8001 --backend 127.0.0.1:8002
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import signal
import sys

CHUNK = 65536


async def pipe(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    try:
        while data := await reader.read(CHUNK):
            writer.write(data)
            await writer.drain()
    except (ConnectionError, asyncio.CancelledError):
        pass
    finally:
        writer.close()


def split(address: str) -> tuple[str, int]:
    host, _, port = address.rpartition(":")
    return host or "127.0.0.1", int(port)


async def serve(listen: str, backends: list[str]) -> None:
    targets = itertools.cycle([split(b) for b in backends])

    async def handle(client_reader: asyncio.StreamReader, client_writer: asyncio.StreamWriter) -> None:
        host, port = next(targets)
        try:
            backend_reader, backend_writer = await asyncio.open_connection(host, port)
        except OSError:
            client_writer.close()
            return
        await asyncio.gather(pipe(client_reader, backend_writer), pipe(backend_reader, client_writer))

    host, port = split(listen)
    server = await asyncio.start_server(handle, host, port, backlog=1024)
    print(f"rrproxy: {listen} -> {', '.join(backends)}", flush=True)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)
    async with server:
        await stop.wait()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--listen", required=True, help="HOST:PORT")
    parser.add_argument("--backend", action="append", required=True, help="HOST:PORT (repeat)")
    args = parser.parse_args(argv)
    asyncio.run(serve(args.listen, args.backend))
    return 0


if __name__ == "__main__":
    sys.exit(main())
