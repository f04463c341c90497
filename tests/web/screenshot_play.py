"""Make ``docs/screenshot-play.png``: the web client in the middle of a hand against a bot, on a desktop.

    .venv/bin/python -m tests.web.screenshot_play [--out docs/screenshot-play.png] [--seed 12] [--turns 4]

It starts its own redis-server, PostgreSQL and gunicorn (with GIN_ALLOW_SEED=1, for a fixed deal), plays a
few turns in Debian's chromium the way the browser tests do, asks for a hint, and saves the screenshot. Not a
test: run it when the look of the page changes.
"""

from __future__ import annotations

import argparse
import base64
import tempfile
from pathlib import Path

from ginrummy.store.embedded import EmbeddedRedis
from ginrummy.store.embedded_postgres import EmbeddedPostgres
from ginrummy.store.schema import migrate
from playwright.sync_api import Page, sync_playwright

from tests.fixtures.live_service import start_service
from tests.support import stop_gunicorn
from tests.web.conftest import CHROMIUM, CHROMIUM_ARGS
from tests.web.pages import Table, start_game

ROOT = Path(__file__).resolve().parents[2]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "screenshot-play.png")
    parser.add_argument("--seed", type=int, default=12)
    parser.add_argument("--turns", type=int, default=4, help="my moves before the picture")
    parser.add_argument("--levels", type=int, default=64, help="levels per colour channel kept in the PNG")
    parser.add_argument("--scale", type=float, default=0.85, help="resize the picture by this factor")
    args = parser.parse_args(argv)
    with (
        tempfile.TemporaryDirectory() as tmp,
        EmbeddedRedis(Path(tmp) / "redis") as redis_server,
        EmbeddedPostgres(Path(tmp) / "postgres", durable=False) as postgres,
    ):
        migrate(postgres.url)  # the service keeps players and finished games there
        process, base = start_service(
            redis_server.url, Path(tmp), workers=1, extra_env={"DATABASE_URL": postgres.url}
        )
        try:
            with sync_playwright() as driver:
                browser = driver.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
                page = browser.new_page(viewport={"width": 1100, "height": 660}, reduced_motion="reduce")
                start_game(page, f"{base}/play/", bot="expert", seed=args.seed, name="Ann")
                table = Table(page)
                for _ in range(args.turns):
                    table.wait_for_turn()
                    table.play_turn()
                table.wait_for_turn()
                if page.locator("#my-hand [data-after]").count() == 0:
                    table.play_turn()  # draw: the picture shows the choice of a discard
                page.keyboard.press("h")
                page.locator("#hint").wait_for()
                page.mouse.move(0, 0)
                page.evaluate("document.activeElement && document.activeElement.blur()")
                args.out.parent.mkdir(parents=True, exist_ok=True)
                args.out.write_bytes(posterized(page, page.screenshot(), args.levels, args.scale))
                browser.close()
        finally:
            stop_gunicorn(process)
    print(f"{args.out} ({args.out.stat().st_size // 1024} KB)")
    return 0


POSTERIZE = """async ([url, levels, scale]) => {
  const image = new Image();
  image.src = url;
  await image.decode();
  const canvas = document.createElement("canvas");
  canvas.width = Math.round(image.width * scale);
  canvas.height = Math.round(image.height * scale);
  const context = canvas.getContext("2d");
  context.imageSmoothingQuality = "high";
  context.drawImage(image, 0, 0, canvas.width, canvas.height);
  const pixels = context.getImageData(0, 0, canvas.width, canvas.height);
  const step = 255 / (levels - 1);
  for (let i = 0; i < pixels.data.length; i++) {
    if (i % 4 !== 3) pixels.data[i] = Math.round(Math.round(pixels.data[i] / step) * step);
  }
  context.putImageData(pixels, 0, 0);
  return canvas.toDataURL("image/png").split(",")[1];
}"""


def posterized(page: Page, png: bytes, levels: int, scale: float) -> bytes:
    """The screenshot with fewer levels per colour channel: the browser dithers its gradients (the felt),
    and that noise would make the PNG several times larger than the page is worth."""
    url = "data:image/png;base64," + base64.b64encode(png).decode()
    return base64.b64decode(page.evaluate(POSTERIZE, [url, levels, scale]))


if __name__ == "__main__":
    raise SystemExit(main())
