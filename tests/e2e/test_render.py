"""The board modules on their own, in Chromium, without a server: the hex geometry of
docs/games/ishtar/contract.md, and a hand-written sample view drawn by the renderer."""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Iterator
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from playwright.sync_api import Page

from tests.e2e.catalogues import catalogue_body
from tests.e2e.gardener import wait_until
from tests.e2e.sample_views import midgame_view
from tests.e2e.shots import shoot

pytestmark = [pytest.mark.browser]

ROOT = Path(__file__).resolve().parents[2]


SAMPLES = {"/sample/midgame.json": midgame_view}


class QuietHandler(SimpleHTTPRequestHandler):
    """Files of the repository, plus the sample views at /sample/<name>.json and the
    languages' catalogues at /i18n/<lang>.json."""

    def do_GET(self) -> None:
        make = SAMPLES.get(self.path)
        body = catalogue_body(self.path.partition("?")[0])
        if make is None and body is None:
            super().do_GET()
            return
        body = body if make is None else json.dumps(make()).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: object) -> None:
        pass


@pytest.fixture(scope="module")
def static_server() -> Iterator[str]:
    """The repository served as plain files (the client has no build step)."""
    server = ThreadingHTTPServer(
        ("127.0.0.1", 0), partial(QuietHandler, directory=str(ROOT))
    )
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


def open_harness(page: Page, base: str, sample: str) -> None:
    page.goto(f"{base}/tests/e2e/harness.html?view=/sample/{sample}.json")
    page.wait_for_selector("body[data-ready='1']", state="attached")


def test_hex_geometry_matches_the_contract(
    new_page: Callable[..., Page], static_server: str
) -> None:
    page = new_page()
    page.goto(f"{static_server}/tests/e2e/harness.html")
    result = page.evaluate(
        """async () => {
          const h = await import('/static/games/ishtar/hex.js');
          const out = {};
          out.rot = h.rotate([1, 0], 1);                       // E -> SE
          out.rot6 = h.rotate([2, -1], 6);
          const line = [[0, 0], [1, 0], [2, 0]];               // the catalogue's shapes
          out.chevron = h.tileCells([[0, 0], [1, 0], [1, 1]], [5, 5], 0);
          out.line2 = h.tileCells(line, [0, 0], 2);            // E, E -> two steps SW
          out.pixel = h.toPixel([1, 2], 10);
          let round = true;
          for (let q = -6; q <= 6; q++) for (let r = -6; r <= 6; r++) {
            const [x, y] = h.toPixel([q, r], 32);
            const back = h.fromPixel(x + 5, y - 7, 32);
            if (back[0] !== q || back[1] !== r) round = false;
          }
          out.round = round;
          out.anchor = h.anchorFor(line, [3, 3], 0, 1);
          return out;
        }"""
    )
    assert result["rot"] == [0, 1]
    assert result["rot6"] == [2, -1]
    assert result["chevron"] == [[5, 5], [6, 5], [6, 6]]
    assert result["line2"] == [[0, 0], [-1, 1], [-2, 2]]
    assert result["pixel"] == pytest.approx([10 * 3**0.5 * 2, 30])
    assert result["round"]
    assert result["anchor"] == [2, 3]


def test_sample_view_is_drawn(
    new_page: Callable[..., Page], static_server: str, artifacts: Path
) -> None:
    view = midgame_view()
    page = new_page(width=900, height=760)
    open_harness(page, static_server, "midgame")
    fountain = next(c for c in view["cells"] if c["terrain"] == "fountain")
    sand = next(
        c
        for c in view["cells"]
        if c["terrain"] == "sand"
        and (c["q"], c["r"]) not in {(s["q"], s["r"]) for s in view["spaces"]}
    )
    colours = page.evaluate(
        """([a, b]) => {
          const r = window.__harness;
          const ctx = r.canvas.getContext('2d');
          const px = (c) => {
            const [x, y] = r.hexToCanvas(c);
            const d = r.size.dpr;
            return Array.from(ctx.getImageData(Math.round(x * d) + 4, Math.round(y * d) + 4, 1, 1).data);
          };
          return {fountain: px(a), sand: px(b), corner: Array.from(ctx.getImageData(2, 2, 1, 1).data)};
        }""",
        [[fountain["q"], fountain["r"]], [sand["q"], sand["r"]]],
    )
    red, green, blue, _ = colours["fountain"]
    assert blue > red  # water in the basin
    red, green, blue, _ = colours["sand"]
    assert red > 180  # warm sand
    assert green > 150
    assert blue < red
    assert colours["corner"][3] == 0  # the page shows through around the boards
    shoot(page, artifacts / "sample-view.png")


def test_pan_zoom_pinch_and_tap(
    new_page: Callable[..., Page], static_server: str
) -> None:
    """Drag pans, the wheel zooms about the pointer, two fingers pinch, a tap hits a hex."""
    page = new_page(width=800, height=600, has_touch=True)
    open_harness(page, static_server, "midgame")
    cam = "() => ({...window.__harness.cam})"
    before = page.evaluate(cam)

    page.mouse.move(400, 300)
    page.mouse.down()
    page.mouse.move(460, 340, steps=4)
    page.mouse.up()
    moved = page.evaluate(cam)
    assert moved["x"] == pytest.approx(before["x"] + 60, abs=1)
    assert moved["y"] == pytest.approx(before["y"] + 40, abs=1)
    assert page.evaluate("() => window.__taps.length") == 0  # a drag is not a tap

    page.mouse.wheel(0, -300)
    # mouse.wheel returns before the page has handled the event: wait for the zoom
    wait_until(page, "k => window.__harness.cam.k > k", moved["k"])

    k = page.evaluate(cam)["k"]
    cdp = page.context.new_cdp_session(page)

    def touch(kind: str, points: list[tuple[int, int]]) -> None:
        cdp.send(
            "Input.dispatchTouchEvent",
            {
                "type": kind,
                "touchPoints": [
                    {"x": x, "y": y, "id": i} for i, (x, y) in enumerate(points)
                ],
            },
        )

    touch("touchStart", [(350, 300), (450, 300)])
    for d in range(1, 6):
        touch("touchMove", [(350 - 10 * d, 300), (450 + 10 * d, 300)])
    touch("touchEnd", [])
    assert page.evaluate(cam)["k"] == pytest.approx(k * 2, rel=0.1)

    page.evaluate("() => window.__harness.fit()")
    cell = page.evaluate(
        "() => { const c = [...window.__harness.cells.values()][40]; return [c.q, c.r]; }"
    )
    x, y = page.evaluate(
        "c => { const [x, y] = window.__harness.hexToClient(c); return [x, y]; }", cell
    )
    page.mouse.click(x, y)
    assert page.evaluate("() => window.__taps") == [cell]


def test_an_assistant_covers_the_icon_and_leaves_the_flowers_visible(
    new_page: Callable[..., Page], static_server: str, artifacts: Path
) -> None:
    """docs/games/ishtar/rules.md "Visible flowers": the counter lies on the icon it was placed on, as
    on the physical board, and the flowers of its space (which score) stay in sight."""
    view = midgame_view()
    page = new_page(width=900, height=760)
    open_harness(page, static_server, "midgame")
    space = next(s for s in view["spaces"] if s["assistant"] == 0)
    assert (space["flowers"], space["icon"]) == (1, "a")
    at = [space["q"], space["r"]]
    # Zoom on the space so that each part of it spans many pixels.
    page.evaluate(
        """async (at) => {
          const r = window.__harness;
          const [x, y] = r.hexToClient(at);
          r.zoomAt(x, y, 6);
        }""",
        at,
    )
    found = page.evaluate(
        """async (at) => {
          const paint = await import('/static/games/ishtar/paint.js');
          const { HEX } = await import('/static/games/ishtar/render.js');
          const r = window.__harness;
          r.draw();
          const ctx = r.canvas.getContext('2d');
          const d = r.size.dpr;
          const s = HEX * r.cam.k;
          const [x, y] = r.hexToCanvas(at);
          const [ix, iy] = paint.iconSpot(x, y, s);
          const px = (u, v) => Array.from(
            ctx.getImageData(Math.round(u * d), Math.round(v * d), 1, 1).data);
          return {
            icon: px(ix - s * paint.ICON_SPOT.r * 0.8, iy),   // inside the icon's disc
            flower: px(x, y - s * 0.12),                       // the one flower's heart
            colour: paint.playerColour(window.__harness.view.players[0].colour),
          };
        }""",
        at,
    )
    red, green, blue, _ = found["icon"]
    # the counter (the pawn's base, a dark shade of blue), not the icon's cream disc
    assert 0.3 * red + 0.59 * green + 0.11 * blue < 120 and blue > red
    assert found["flower"][:3] == pytest.approx([0xF2, 0xB6, 0x30], abs=12)
    shoot(page, artifacts / "assistant-on-its-icon.png")


def board_script(exported: str, level: str) -> str:
    """A page script: a bare `BoardCanvas` on the harness whose every draw counts itself
    (`__draws`) and records `level` (`__levels`, JS: `marks` is the script's argument,
    `this.t0` the board's start); it returns canvas.js's `exported`."""
    return """async (options) => {
  const marks = options?.marks;
  const { BoardCanvas, EXPORTED } = await import('/static/js/canvas.js');
  const canvas = document.createElement('canvas');
  canvas.style.width = '200px';
  canvas.style.height = '100px';
  document.body.append(canvas);
  class Board extends BoardCanvas {
    fit() {}
    draw() {
      window.__draws += 1;
      window.__levels.push(LEVEL);
    }
  }
  window.__draws = 0;
  window.__levels = [];
  window.__board = new Board(canvas);
  window.__board.t0 = performance.now();
  window.__board.invalidate();
  return EXPORTED;
}""".replace("EXPORTED", exported).replace("LEVEL", level)


PULSING_BOARD = board_script("PULSE_FPS", "marks ? this.pulse(240) : null")


@pytest.mark.parametrize("motion", ["no-preference", "reduce"])
def test_a_pulse_redraws_the_board_at_its_own_rate_or_holds_still(
    new_page: Callable[..., Page], static_server: str, motion: str
) -> None:
    """The marks of a turn pulse for as long as the player thinks: PULSE_FPS redraws a
    second, not one per screen frame; none under prefers-reduced-motion, where the pulse
    holds still. A board without marks is drawn once. Time is Playwright's fake clock."""
    page = new_page(reduced_motion=motion)
    page.clock.install()
    page.goto(f"{static_server}/tests/e2e/harness.html")
    page.clock.run_for(100)
    fps = page.evaluate(PULSING_BOARD, {"marks": True})
    page.clock.run_for(50)
    first = page.evaluate("window.__draws")
    assert first >= 1
    page.clock.run_for(2000)
    draws = page.evaluate("window.__draws") - first
    levels = page.evaluate("window.__levels")
    if motion == "reduce":
        assert draws == 0
        assert set(levels) == {0.75}
    else:
        # at most PULSE_FPS a second (a redraw waits for the screen's next frame after
        # its timer), at least half of it; a redraw each frame would be 120
        assert fps <= draws <= 2 * fps, (draws, fps)
        assert fps <= 30
        assert len(set(levels)) > 10, "the level moves with the clock"
    page.evaluate("window.__board.destroy()")

    still = new_page()
    still.clock.install()
    still.goto(f"{static_server}/tests/e2e/harness.html")
    still.evaluate(PULSING_BOARD, {"marks": False})
    still.clock.run_for(2000)
    assert still.evaluate("window.__draws") == 1


FADING_BOARD = board_script("FADE_STEPS", "this.fade(this.t0, 2200)")


@pytest.mark.parametrize("motion", ["no-preference", "reduce"])
def test_a_fade_redraws_the_board_at_each_step_or_once_at_its_end(
    new_page: Callable[..., Page], static_server: str, motion: str
) -> None:
    """A fade (another player's cells lit, a harvest's glow) goes down in FADE_STEPS steps,
    each one redraw, and the board is drawn once more when it is over: not at every frame
    of the screen (some 130 redraws in its 2.2 s). Under prefers-reduced-motion it holds
    until its end. Time is Playwright's fake clock."""
    page = new_page(reduced_motion=motion)
    page.clock.install()
    page.goto(f"{static_server}/tests/e2e/harness.html")
    page.clock.run_for(100)
    steps = page.evaluate(FADING_BOARD)
    page.clock.run_for(3000)
    levels = page.evaluate("window.__levels")
    if motion == "reduce":
        assert levels == [1, None]
    else:
        assert steps <= 10
        assert levels == [1 - i / steps for i in range(steps)] + [None]
    page.clock.run_for(2000)
    assert page.evaluate("window.__levels.length") == len(levels)  # then nothing
    page.evaluate("window.__board.destroy()")


BASE_PAINTS = """() => {
  const r = window.__harness;
  window.__paints = 0;
  const paint = r.drawBoardShadow;  // the first layer, drawn only when the base is painted
  r.drawBoardShadow = function () { window.__paints += 1; return paint.call(this); };
  window.__frames = 0;
  const draw = r.draw;
  r.draw = function () { window.__frames += 1; return draw.call(this); };
}"""

PIXELS = "() => window.__harness.canvas.toDataURL()"


def test_the_board_is_painted_once_and_its_frames_copy_it(
    new_page: Callable[..., Page], static_server: str
) -> None:
    """The board's layer (terrain, tiles, pieces) is painted when the view, the camera or
    the pieces settling change; a frame of a fade or of a piece popping in copies it and
    draws what moves over it. What the canvas shows after each is what a whole redraw
    shows."""
    view = midgame_view()
    page = new_page(width=900, height=760)
    page.clock.install()
    page.goto(f"{static_server}/tests/e2e/harness.html?view=/sample/midgame.json")
    page.clock.run_for(100)
    page.wait_for_selector("body[data-ready='1']", state="attached")
    page.evaluate(BASE_PAINTS)
    still = page.evaluate(PIXELS)

    # a fade: lit, then gone, and the board's layer never painted again
    cell = [view["spaces"][0]["q"], view["spaces"][0]["r"]]
    page.evaluate("c => window.__harness.highlight([c])", cell)
    page.clock.run_for(50)
    assert page.evaluate(PIXELS) != still
    page.clock.run_for(3000)
    assert page.evaluate("window.__paints") == 0
    assert page.evaluate("window.__frames") >= 8
    assert page.evaluate(PIXELS) == still

    # a tile laid: the layer painted without it, frames pop it in over the layer, and the
    # layer painted again with it once it has settled
    grown = json.loads(json.dumps(view))
    taken = {(c["q"], c["r"]) for c in grown["spaces"]}
    free = next(
        c
        for c in grown["cells"]
        if c["terrain"] == "sand" and (c["q"], c["r"]) not in taken
    )
    grown["spaces"].append(
        {**view["spaces"][0], "q": free["q"], "r": free["r"], "tree": None}
    )
    page.evaluate("v => { window.__frames = 0; window.__harness.setView(v); }", grown)
    page.clock.run_for(1000)
    assert page.evaluate("window.__frames") > 4
    assert page.evaluate("window.__paints") == 2
    settled = page.evaluate(PIXELS)
    page.evaluate(
        "() => { window.__harness.baseView = null; window.__harness.draw(); }"
    )
    assert page.evaluate(PIXELS) == settled
    assert settled != still


def test_a_small_picture_is_painted_once_and_its_copies_are_images(
    new_page: Callable[..., Page], static_server: str
) -> None:
    """The panels' pictures (js/pictures.js): each distinct one painted once on a canvas,
    its copies images of it; what is kept stays within LIMIT_BYTES, the least recently
    used dropped first; a picture that could not be painted yet is not kept."""
    page = new_page(width=400, height=300)
    page.goto(f"{static_server}/tests/e2e/harness.html")
    out = page.evaluate(
        """async () => {
          const { picture, keptPictures, LIMIT_BYTES } = await import('/static/js/pictures.js');
          let paints = 0;
          const dot = (colour) => (g) => {
            paints += 1;
            g.fillStyle = colour;
            g.fillRect(0, 0, 20, 20);
          };
          const a = picture('dot red', 20, 20, dot('#e00000'), 'marker');
          const b = picture('dot red', 20, 20, dot('#e00000'));
          const c = picture('dot blue', 20, 20, dot('#0000e0'));
          const bigger = picture('dot red', 30, 30, dot('#e00000'));
          const first = paints;
          // a picture that could not be painted yet: shown, not kept
          picture('later', 20, 20, () => false);
          picture('later', 20, 20, () => false);
          const kept = keptPictures();
          await a.decode();
          const g = document.createElement('canvas').getContext('2d');
          g.drawImage(a, 0, 0);
          const px = [...g.getImageData(10, 10, 1, 1).data];
          // many different pictures: the oldest go, the bytes stay within the bound
          const noise = (g) => {
            for (let i = 0; i < 400; i += 1) {
              g.fillStyle = `rgb(${(i * 37) % 256},${(i * 91) % 256},${(i * 13) % 256})`;
              g.fillRect((i * 7) % 60, (i * 11) % 60, 3, 3);
            }
          };
          for (let i = 0; i < 1000; i += 1) picture(`noise ${i}`, 64, 64, noise);
          const full = keptPictures();
          const before = paints;
          picture('dot red', 20, 20, dot('#e00000'));
          return {
            tags: [a.tagName, a.className, a.style.width, a.alt],
            same: a.src === b.src, differ: a.src !== c.src, sized: bigger.src !== a.src,
            first, kept: kept.count, px, limit: LIMIT_BYTES, full, repainted: paints - before,
          };
        }"""
    )
    assert out["tags"] == ["IMG", "marker", "20px", ""]
    assert out["same"] and out["differ"] and out["sized"]
    assert (
        out["first"] == 3
    )  # red at 20 px, blue, red at 30 px: the second red was kept
    assert out["kept"] == 3  # "later" painted twice, never kept
    assert out["px"][:3] == [0xE0, 0, 0] and out["px"][3] == 255
    assert 0 < out["full"]["bytes"] <= out["limit"]
    assert out["full"]["count"] < 1003  # the oldest were dropped ...
    assert out["repainted"] == 1  # ... the first red among them
