"""Babylon Gardens' screen on its own, in Chromium, without a server: the module the shell
imports (static/games/babylon/screen.js) is mounted in a copy of the room page's layout with
a stand-in `ctx` (the shell's real action bar; `send` and `why` recorded), and draws the
hand-written sample views of tests/e2e/babylon_samples.py — the board, the path, the steps
one may take, the harvest, the scoreboards with their borders and lines, the scoreboard
choice, the replay, the final scores."""

from __future__ import annotations

import json
import re
import threading
from collections.abc import Callable, Iterator
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.e2e import babylon_samples as samples
from tests.e2e.catalogues import LANG_SCRIPT, catalogue_body
from tests.e2e.shots import shoot

pytestmark = [pytest.mark.browser]

ROOT = Path(__file__).resolve().parents[2]

REASON = "Diagonal steps are not allowed"

# The room page's game layout (templates/_game.html), the screen mounted in it by hand.
HARNESS = """<!doctype html>
<html><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
__LANG__
<link rel="stylesheet" href="/static/css/shell.css"></head>
<body class="page-room">
<section class="game" id="game">
  <div class="board-wrap" id="board-wrap">
    <div class="actionbar" id="actionbar" aria-live="polite">
      <div class="prompt"><strong id="prompt"></strong><span id="subprompt"></span></div>
      <div class="choices" id="choices"></div>
    </div>
    <div class="stage" id="stage"></div>
  </div>
  <aside class="side" id="side"><div class="game-panels" id="game-panels"></div></aside>
</section>
<table id="score-table"></table><p id="winner"></p><p id="tiebreak"></p>
<script type="module">
import { ActionBar } from "/static/js/actionbar.js";
const q = new URLSearchParams(location.search);
const get = async (name) => (await fetch(`/sample/${name}.json`)).json();
const mode = q.get("mode") || "play";
const mod = await import("/static/games/babylon/screen.js");
const names = ["Ana", "Björn", "Chen", "Dana"];
const sent = [];
const asked = [];
const screen = await mod.mount({
  mode,
  stage: document.getElementById("stage"),
  panels: document.getElementById("game-panels"),
  catalogue: get("catalogue"),
  name: (seat) => names[seat],
  bar: mode === "play" ? new ActionBar(document.getElementById("actionbar")) : undefined,
  send: (action) => { sent.push(action); return true; },
  why: (action) => { asked.push(action); return Promise.resolve(__REASON__); },
  showScores: () => {},
});
const view = await get(q.get("view"));
const legal = q.get("legal") ? await get(q.get("legal")) : [];
const room = { seats: names.map((name, seat) => ({ seat, name })) };
const show = () => screen.update({ view, legal, version: 1, event: null, room, presence: { connected_seats: [0, 1] } });
show();
window.__harness = { mod, screen, sent, asked, view, legal, again: () => { screen.moveFailed(); } };
await new Promise((r) => setTimeout(r, 50));
requestAnimationFrame(() => requestAnimationFrame(() => { document.body.dataset.ready = "1"; }));
</script></body></html>
""".replace("__REASON__", json.dumps(REASON))

SAMPLES: dict[str, Callable[[], Any]] = {
    "/sample/catalogue.json": samples.catalogue,
    "/sample/midturn.json": samples.lower_midturn_view,
    "/sample/midturn-legal.json": samples.lower_midturn_legal,
    "/sample/start.json": samples.lower_start_view,
    "/sample/start-legal.json": samples.lower_start_legal,
    "/sample/choose.json": samples.choose_view,
    "/sample/choose-legal.json": samples.choose_legal,
    "/sample/over.json": samples.over_view,
}


class Handler(SimpleHTTPRequestHandler):
    """Files of the repository, the harness page, and the samples at /sample/<name>.json."""

    def do_GET(self) -> None:
        path = self.path.split("?", 1)[0]
        if path == "/babylon-harness.html":
            page = HARNESS.replace("__LANG__", LANG_SCRIPT)
            self.reply(page.encode(), "text/html; charset=utf-8")
            return
        catalogue = catalogue_body(path)
        if catalogue is not None:
            self.reply(catalogue, "application/json")
            return
        make = SAMPLES.get(path)
        if make is None:
            super().do_GET()
            return
        self.reply(json.dumps(make()).encode(), "application/json")

    def reply(self, body: bytes, kind: str) -> None:
        self.send_response(200)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: object) -> None:
        pass


@pytest.fixture(scope="module")
def static_server() -> Iterator[str]:
    server = ThreadingHTTPServer(
        ("127.0.0.1", 0), partial(Handler, directory=str(ROOT))
    )
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


def open_screen(
    page: Page,
    base: str,
    view: str,
    legal: str | None = None,
    mode: str = "play",
    lang: str = "en",
) -> None:
    query = f"view={view}&mode={mode}&lang={lang}" + (
        f"&legal={legal}" if legal else ""
    )
    page.goto(f"{base}/babylon-harness.html?{query}")
    page.wait_for_selector("body[data-ready='1']", state="attached")


def centre(page: Page, at: list[int]) -> tuple[float, float]:
    x, y = page.evaluate("at => window.__harness.screen.hook.tileToClient(at)", at)
    return x, y


def tile_px(page: Page) -> float:
    """The size of a grid square in client pixels (from the screen's own geometry)."""
    (x0, _), (x1, _) = centre(page, [0, 0]), centre(page, [0, 1])
    return x1 - x0


def pixel(page: Page, x: float, y: float) -> list[int]:
    """The board canvas's colour at client point (x, y)."""
    rgba: list[int] = page.evaluate(
        """([x, y]) => {
          const c = document.getElementById('board');
          const r = c.getBoundingClientRect();
          const d = c.width / r.width;
          const px = c.getContext('2d').getImageData(Math.round((x - r.left) * d), Math.round((y - r.top) * d), 1, 1).data;
          return Array.from(px);
        }""",
        [x, y],
    )
    return rgba


def dominant(rgb: list[int]) -> str:
    """Which nectar colour a frame pixel is: purple is red and blue over green."""
    r, g, b = rgb[:3]
    if b > g and r > g:
        return "purple"
    if r > 150 and g > 130 and b < 100:
        return "yellow"
    return "red" if r > g else "green"


def test_the_board_paints_each_tile_where_the_screen_says(
    new_page: Callable[..., Page], static_server: str, artifacts: Path
) -> None:
    page = new_page(width=1280, height=800)
    open_screen(page, static_server, "start", "start-legal")
    view = samples.lower_start_view()
    size = tile_px(page)
    assert size > 60  # a 3 x 3 floor is drawn large on a desktop
    for t in view["tiles"]:
        x, y = centre(page, t["at"])
        # the frame of the tile, just inside its left edge, is painted in its nectar colour
        assert dominant(pixel(page, x - size * 0.415, y)) == t["colour"], t
    # the well in the middle holds water: blue over red
    wx, wy = centre(page, view["floor"]["well"])
    r, _, b, _ = pixel(page, wx + size * 0.1, wy + size * 0.1)
    assert b > r + 40
    # the gems of a tile sit in its sockets: a clear bead is pale, an empty socket is not
    gems = next(t for t in view["tiles"] if t["at"] == [0, 2])  # 1 of 4
    assert (gems["gems"], gems["flowers"]) == (1, 4)
    spots = page.evaluate(
        "async () => (await import('/static/games/babylon/paint.js')).socketSpots(4)"
    )
    x0, y0 = centre(page, [0, 2])
    left = x0 - size / 2
    top = y0 - size / 2
    bead = pixel(page, left + spots[0][0] * size, top + spots[0][1] * size)
    empty = pixel(page, left + spots[3][0] * size, top + spots[3][1] * size)
    assert min(bead[:3]) > 190  # clear glass catching the light
    assert bead != empty
    shoot(page, artifacts / "babylon-start.png")


def test_the_path_the_steps_and_hover_reasons(
    new_page: Callable[..., Page], static_server: str, artifacts: Path
) -> None:
    page = new_page(width=1280, height=800)
    open_screen(page, static_server, "midturn", "midturn-legal")
    # the path is drawn from the well to its first tile: water blue between the two centres
    wx, wy = centre(page, [1, 1])
    fx, fy = centre(page, [1, 2])
    r, _, b, _ = pixel(page, (wx + fx) / 2, (wy + fy) / 2)
    assert b > r + 40 and b > 120
    # hovering the one legal step shows its preview
    x, y = centre(page, [0, 1])
    page.mouse.move(x, y)
    tip = page.locator("#bg-tooltip.ok")
    expect(tip).to_be_visible()
    expect(tip).to_contain_text("1/1 gems")
    expect(tip).to_contain_text("fills")
    shoot(page, artifacts / "babylon-hover-legal.png")
    # hovering an illegal square asks the engine why, and says it
    x, y = centre(page, [1, 0])
    page.mouse.move(x, y)
    bad = page.locator("#bg-tooltip.bad")
    expect(bad).to_have_text(REASON)
    asked = page.evaluate("() => window.__harness.asked")
    assert {"type": "irrigate", "at": [1, 0]} in asked
    shoot(page, artifacts / "babylon-hover-illegal.png")
    # the bar: the harvest with what it gives, and undo
    harvest = page.locator("[data-act='harvest']")
    expect(harvest).to_contain_text("End path and harvest")
    expect(harvest).to_contain_text("+1 pts")
    expect(harvest.locator(".bg-wink.red")).to_have_count(1)
    expect(harvest).not_to_contain_text("ends the game")
    expect(page.locator("[data-act='undo']")).to_contain_text("Undo step")
    # a click on the legal tile sends exactly its action
    x, y = centre(page, [0, 1])
    page.mouse.click(x, y)
    assert page.evaluate("() => window.__harness.sent") == [
        {"type": "irrigate", "at": [0, 1]}
    ]
    # while the move is on its way, nothing else is sent
    page.mouse.click(x, y)
    page.locator("#board").press("Enter")
    assert len(page.evaluate("() => window.__harness.sent")) == 1


def test_keys_step_harvest_and_undo(
    new_page: Callable[..., Page], static_server: str
) -> None:
    page = new_page(width=1000, height=760)
    open_screen(page, static_server, "midturn", "midturn-legal")
    page.locator("#board").focus()
    sent = "() => window.__harness.sent"

    def press(key: str) -> Any:
        page.keyboard.press(key)
        last = page.evaluate(sent)[-1]
        page.evaluate("() => window.__harness.again()")  # as if the server refused it
        return last

    assert press("ArrowLeft") == {"type": "irrigate", "at": [0, 1]}  # [0,2] -> left
    assert press("1") == {"type": "irrigate", "at": [0, 1]}
    assert press("Enter") == {"type": "harvest"}
    assert press("u") == {"type": "undo"}
    assert press("Backspace") == {"type": "undo"}
    count = len(page.evaluate(sent))
    # down from [0,2] is [1,2], already on the path: the engine's reason is shown, no move
    page.keyboard.press("ArrowDown")
    expect(page.locator("#bg-tooltip.bad")).to_have_text(REASON)
    assert {"type": "irrigate", "at": [1, 2]} in page.evaluate(
        "() => window.__harness.asked"
    )
    assert len(page.evaluate(sent)) == count


def test_scoreboards_show_borders_winks_lines_and_totals(
    new_page: Callable[..., Page], static_server: str, artifacts: Path
) -> None:
    page = new_page(width=1280, height=800)
    open_screen(page, static_server, "midturn", "midturn-legal")
    cat = samples.catalogue()
    view = samples.lower_midturn_view()
    for p in view["players"]:
        board = page.locator(f".bg-player[data-seat='{p['seat']}']")
        expect(board).to_contain_text(["Ana", "Björn"][p["seat"]])
        expect(board.locator(".bg-total")).to_contain_text(str(p["score"]["total"]))
        svg = board.locator("svg.scoreboard")
        expect(
            svg.locator("g[data-slot]:not(.wink):not(.ghost):not(.matched)")
        ).to_have_count(25)
        borders = svg.evaluate(
            "s => [...s.querySelectorAll('g[data-border]')].map(g => [Number(g.dataset.slot), g.dataset.border])"
        )
        assert sorted(borders) == sorted(
            [b["slot"], b["colour"]] for b in cat["sides"][p["side"]]["borders"]
        )
        placed = svg.evaluate(
            "s => [...s.querySelectorAll('g.wink')].map(g => [Number(g.dataset.slot), g.dataset.colour])"
        )
        assert placed == [[i + 1, c] for i, c in enumerate(p["winks"])]
        points = svg.evaluate(
            "s => Object.fromEntries([...s.querySelectorAll('.line-points')].map(g => [g.dataset.line, Number(g.textContent.match(/\\d+/)[0])]))"
        )
        assert points == {d["line"]: d["points"] for d in p["score"]["lines_detail"]}
        matched = svg.evaluate(
            "s => [...s.querySelectorAll('g.matched')].map(g => Number(g.dataset.slot))"
        )
        assert matched == p["score"]["colour_slots"]
        runs = svg.locator("line.run")
        expect(runs).to_have_count(
            sum(len(d["runs"]) for d in p["score"]["lines_detail"])
        )
        mark = board.locator(".bg-seat")
        assert "rgb" in mark.evaluate("m => getComputedStyle(m).backgroundColor")
    # the spec's worked example (§6) on Ana's side A1: 63 = 13 + 10 + 40
    ana = page.locator(".bg-player[data-seat='0']")
    facts = ana.locator(".bg-facts").evaluate(
        "d => Object.fromEntries([...d.querySelectorAll('dt')].map(t => [t.textContent, t.nextElementSibling.textContent]))"
    )
    assert facts == {
        "Side": "A1",
        "Winks": "13/25",
        "Fill": "13",
        "Colour": "10",
        "Lines": "40",
    }
    # Ana plays: the harvest's wink shows as a ghost in her next slot, Björn has none
    ghost = ana.locator("g.ghost")
    expect(ghost).to_have_count(1)
    assert ghost.get_attribute("data-slot") == "14"
    expect(page.locator(".bg-player[data-seat='1'] g.ghost")).to_have_count(0)
    # the seat colours: blue and orange marks
    colours = page.evaluate(
        "() => [...document.querySelectorAll('.bg-player .bg-seat')].map(m => getComputedStyle(m).backgroundColor)"
    )
    assert colours[0] != colours[1]
    # the piles' sizes and the discards, newest first
    expect(page.locator(".bg-pile.single .bg-back")).to_have_text("14")
    expect(page.locator(".bg-pile.multi .bg-back")).to_have_text("25")
    chips = page.locator("[data-discards='multi'] .bg-chip")
    assert [chips.nth(i).get_attribute("data-tile") for i in range(2)] == [
        "M-g5-1",
        "M-y3-2",
    ]
    expect(page.locator("#bg-floor")).to_have_text("Lower Garden")
    shoot(page.locator("#side"), artifacts / "babylon-scoreboards.png")


def test_the_last_harvest_glows(
    new_page: Callable[..., Page], static_server: str
) -> None:
    page = new_page(width=1000, height=760)
    open_screen(page, static_server, "midturn", "midturn-legal")
    glowing = page.evaluate(
        "() => window.__harness.screen.renderer.glows.flatMap(g => g.cells.map(c => c.at))"
    )
    assert glowing == [h["at"] for h in samples.lower_midturn_view()["harvested"]]
    # the next step of the same turn does not light it again
    page.evaluate(
        """() => {
          const h = window.__harness;
          h.screen.renderer.glows = [];
          h.screen.update({view: h.view, legal: h.legal, version: 2, room: null, presence: null});
        }"""
    )
    assert page.evaluate("() => window.__harness.screen.renderer.glows.length") == 0


def test_choosing_a_scoreboard(
    new_page: Callable[..., Page], static_server: str, artifacts: Path
) -> None:
    page = new_page(width=1280, height=800)
    open_screen(page, static_server, "choose", "choose-legal")
    chooser = page.locator("#bg-chooser")
    expect(chooser).to_be_visible()
    sides = [e["action"]["side"] for e in samples.choose_legal()]
    expect(chooser.locator(".bg-side")).to_have_count(len(sides))
    for side in sides:
        button = chooser.locator(f"[data-act='side-{side}']")
        expect(button.locator("g[data-border]")).to_have_count(8)
    expect(page.locator("#prompt")).to_have_text("Choose your scoreboard")
    shoot(page, artifacts / "babylon-choose.png")
    chooser.locator("[data-act='side-C2']").click()
    assert page.evaluate("() => window.__harness.sent") == [
        {"type": "scoreboard", "side": "C2"}
    ]
    page.evaluate("() => window.__harness.again()")
    page.keyboard.press("1")
    assert page.evaluate("() => window.__harness.sent")[-1] == {
        "type": "scoreboard",
        "side": "A1",
    }


def test_a_phone_sized_screen(
    new_page: Callable[..., Page], static_server: str, artifacts: Path
) -> None:
    page = new_page(width=390, height=844, is_mobile=True, has_touch=True)
    open_screen(page, static_server, "start", "start-legal")
    view = samples.lower_start_view()
    for t in view["tiles"]:
        x, y = centre(page, t["at"])
        assert 0 < x < 390 and 0 < y < 844
    bar = page.locator("#actionbar").bounding_box()
    _, top_y = centre(page, [0, 0])
    assert bar is not None and top_y - tile_px(page) / 2 > bar["y"] + bar["height"]
    # a tap on a highlighted tile steps onto it
    x, y = centre(page, [2, 1])
    page.touchscreen.tap(x, y)
    assert page.evaluate("() => window.__harness.sent") == [
        {"type": "irrigate", "at": [2, 1]}
    ]
    shoot(page, artifacts / "babylon-phone.png", full_page=True)


def test_replay_mode_and_final_scores(
    new_page: Callable[..., Page], static_server: str, artifacts: Path
) -> None:
    page = new_page(width=1280, height=800)
    open_screen(page, static_server, "over", mode="replay")
    view = samples.over_view()
    expect(page.locator(".bg-player")).to_have_count(2)
    expect(page.locator(".bg-player[data-seat='1'] g.wink")).to_have_count(25)
    expect(page.locator("#bg-chooser")).to_be_hidden()
    expect(page.locator("#game-panels button")).to_have_count(0)
    expect(page.locator(".bg-player[data-seat='1'] .turnmark.win")).to_be_visible()
    # a 7 x 7 floor: every tile drawn inside the canvas, below the bar over the stage
    for t in view["tiles"]:
        x, y = centre(page, t["at"])
        assert 0 < x < 1280 and 0 < y < 800
    bar = page.locator("#actionbar").bounding_box()
    assert bar is not None
    assert centre(page, [0, 0])[1] - tile_px(page) / 2 > bar["y"] + bar["height"]
    shoot(page, artifacts / "babylon-replay.png")
    page.evaluate(
        """() => {
          const h = window.__harness;
          h.screen.renderScores(document.getElementById('score-table'), document.getElementById('winner'),
            document.getElementById('tiebreak'), h.view, {seats: [{seat: 0, name: 'Ana'}, {seat: 1, name: 'Björn'}]});
        }"""
    )
    table = page.locator("#score-table")
    for label in ("Fill", "Colour", "Lines", "Row", "Column", "Winks", "Total"):
        expect(table).to_contain_text(label)
    totals = table.locator("tr.total td")
    assert [totals.nth(i).inner_text() for i in range(2)] == [
        str(p["total"]) for p in view["scores"]["players"]
    ]
    expect(page.locator("#winner")).to_have_text(
        f"Björn wins with {view['scores']['players'][1]['total']} points"
    )


def test_the_module_exports(new_page: Callable[..., Page], static_server: str) -> None:
    page = new_page(width=800, height=600)
    open_screen(page, static_server, "start", "start-legal")
    out = page.evaluate(
        """() => {
          const m = window.__harness.mod;
          const icon = m.seatIcon('orange', 24);
          const c = document.createElement('canvas');
          m.vignette(c);
          const px = c.getContext('2d').getImageData(c.width / 2, c.height / 2, 1, 1).data;
          return {
            words: [
              m.describeOptions({floor: 'lower', scoreboards: 'random', teams: true, first_player: null}),
              m.describeOptions({floor: 'tammuz', scoreboards: 'choose', teams: false, first_player: 1}),
            ],
            icon: [icon.tagName, icon.style.width],
            vignette: px[3],
          };
        }"""
    )
    assert out["words"] == [
        "Lower Garden · random scoreboards · teams",
        "Tammuz's Garden · scoreboards chosen · seat 2 starts",
    ]
    assert out["icon"] == ["CANVAS", "24px"]
    assert out["vignette"] == 255


def test_the_sprite_cache_is_bounded_in_bytes(
    new_page: Callable[..., Page], static_server: str
) -> None:
    """The board's painted tiles are kept within a byte bound (oldest out first), and a new
    tile size drops them all; a sprite in use is found again, not painted twice."""
    page = new_page(width=800, height=600)
    open_screen(page, static_server, "start", "start-legal")
    out = page.evaluate(
        """async () => {
          const { SpriteCache } = await import('/static/games/babylon/sprites.js');
          const size = 50;
          const one = size * size * 4;
          const cache = new SpriteCache(3 * one);
          let painted = 0;
          const paint = () => { painted += 1; };
          for (const k of ['a', 'b', 'c', 'd', 'e']) cache.get(k, size, paint);
          const afterFive = {bytes: cache.bytes, keys: [...cache.items.keys()]};
          cache.get('e', size, paint);  // a hit
          const hits = painted;
          cache.get('a', 60, paint);    // a resize
          return {afterFive, hits, resized: {bytes: cache.bytes, keys: [...cache.items.keys()]}, one};
        }"""
    )
    assert out["afterFive"]["bytes"] <= 3 * out["one"]
    assert out["afterFive"]["keys"] == ["c", "d", "e"]
    assert out["hits"] == 5
    assert out["resized"] == {"bytes": 60 * 60 * 4, "keys": ["a"]}
    # the board's own cache holds one sprite per distinct square, within its bound
    board = page.evaluate(
        "() => { const s = window.__harness.screen.renderer.sprites;"
        " return {n: s.items.size, bytes: s.bytes, max: s.maxBytes}; }"
    )
    kinds = {
        (t["kind"], t["colour"], t["flowers"], t["gems"])
        for t in samples.lower_start_view()["tiles"]
    }
    assert board["n"] == len(kinds) + 1  # and the well
    assert board["bytes"] <= board["max"]


def test_a_sweep_across_the_board_asks_only_where_the_pointer_rests(
    new_page: Callable[..., Page], static_server: str
) -> None:
    """The engine is asked why for the square the pointer stops on, not for every square
    it crosses; and the square just stepped onto shows no tip under the click."""
    page = new_page(width=1000, height=760)
    open_screen(page, static_server, "midturn", "midturn-legal")
    points = [centre(page, at) for at in ([2, 0], [2, 1], [2, 2])]
    # The sweep in one task of the page: however slow the machine, no debounce timer can
    # fire between its moves (mouse.move calls from here could be 90 ms apart).
    page.evaluate(
        """points => {
          const canvas = document.getElementById('board');
          for (const [x, y] of points) {
            canvas.dispatchEvent(new PointerEvent('pointermove', {
              clientX: x, clientY: y, pointerType: 'mouse', bubbles: true }));
          }
        }""",
        points,
    )
    expect(page.locator("#bg-tooltip.bad")).to_have_text(REASON)
    asked = page.evaluate("() => window.__harness.asked")
    assert asked == [{"type": "irrigate", "at": [2, 2]}]
    x, y = centre(page, [0, 1])
    page.mouse.click(x, y)
    expect(page.locator("#bg-tooltip")).to_be_hidden()


# ---- languages: the screen in French and in Dutch (issue 18, "Languages") ----------------


def test_the_screen_reads_in_french_tooltip_button_and_the_final_table(
    new_page: Callable[..., Page], static_server: str, artifacts: Path
) -> None:
    page = new_page(width=1280, height=860)
    open_screen(page, static_server, "midturn", "midturn-legal", lang="fr")
    assert page.evaluate("document.documentElement.lang") == "fr"
    # the one legal step's preview: it fills its tile (a 1-flower tile, as in English above)
    x, y = centre(page, [0, 1])
    page.mouse.move(x, y)
    tip = page.locator("#bg-tooltip.ok")
    expect(tip).to_have_text(
        re.compile(
            r"^L’arroser\u00a0: 1/1 gouttes d’eau · remplie — un jeton (rouge|vert|jaune|violet) à la récolte$"
        )
    )
    harvest = page.locator("[data-act='harvest']")
    expect(harvest).to_contain_text("Finir le chemin et récolter")
    expect(page.locator("[data-act='undo']")).to_contain_text("↶ Annuler l’étape")
    expect(page.locator(".bg-players-panel h2")).to_have_text("Tableaux de score")
    expect(page.locator("#bg-floor")).to_have_text("Jardin inférieur")
    shoot(page, artifacts / "babylon-fr-midturn.png")

    open_screen(page, static_server, "over", mode="replay", lang="fr")
    page.evaluate(
        """() => {
          const h = window.__harness;
          h.screen.renderScores(document.getElementById('score-table'), document.getElementById('winner'),
            document.getElementById('tiebreak'), h.view, {seats: [{seat: 0, name: 'Ana'}, {seat: 1, name: 'Björn'}]});
        }"""
    )
    rows = page.locator("#score-table tbody th[scope='row']").all_inner_texts()
    assert rows[:3] == [
        "Remplissage 1 par jeton",
        "Couleur 5 par bordure assortie",
        "Lignes",
    ]
    assert rows[-2:] == ["Jetons", "Total"]
    assert set(rows[3:-2]) <= {"Ligne", "Colonne", "Diagonale ↘", "Diagonale ↗"}
    total = samples.over_view()["scores"]["players"][1]["total"]
    expect(page.locator("#winner")).to_have_text(f"Björn gagne avec {total} points")


# The end's notice when seat 0's scoreboard, then seat 1's, is 5 winks from full (another
# seat watching): `endNotice` of the screen on the sample view so changed.
NEAR_THE_END = """() => {
  const h = window.__harness;
  return [0, 1].map((fullest) => {
    const view = structuredClone(h.view);
    view.viewer = 1 - fullest;
    for (const p of view.players) p.winks = p.seat === fullest ? Array(20).fill("red") : [];
    return h.screen.endNotice(view);
  });
}"""


@pytest.mark.parametrize(
    ("lang", "ana", "bjorn"),
    [
        (
            "fr",
            (
                "Tableau de score d’Ana, face A1",
                "Le tableau de score d’Ana a 20 jetons",
            ),
            ("Tableau de score de Björn, face ", "Le tableau de score de Björn a 20"),
        ),
        (
            "en",
            ("Ana's scoreboard, side A1", "Ana’s scoreboard has 20 of 25 winks"),
            ("Björn's scoreboard, side ", "Björn’s scoreboard has 20 of 25 winks"),
        ),
    ],
)
def test_a_players_scoreboard_is_named_with_french_elision(
    new_page: Callable[..., Page],
    static_server: str,
    lang: str,
    ana: tuple[str, str],
    bjorn: tuple[str, str],
) -> None:
    """The scoreboards' accessible names and the end's notice name their owner with
    `ofName` (docs/i18n.md): "d’Ana" before a vowel, "de Björn" before a consonant."""
    page = new_page(width=1280, height=800)
    open_screen(page, static_server, "midturn", "midturn-legal", lang=lang)
    boards = page.locator(".bg-player svg.scoreboard")
    labels = [boards.nth(i).get_attribute("aria-label") or "" for i in (0, 1)]
    notices = page.evaluate(NEAR_THE_END)
    assert labels[0].startswith(ana[0]) and notices[0].startswith(ana[1]), labels
    assert labels[1].startswith(bjorn[0]) and notices[1].startswith(bjorn[1]), labels
    assert "de Ana" not in labels[0] + notices[0], notices


@pytest.mark.parametrize("lang", ["fr", "nl"])
@pytest.mark.parametrize(
    ("screen", "size"),
    [
        ("desktop", {"width": 1280, "height": 860}),
        ("phone", {"width": 390, "height": 844, "is_mobile": True, "has_touch": True}),
    ],
)
def test_screenshots_in_french_and_dutch(
    new_page: Callable[..., Page],
    static_server: str,
    artifacts: Path,
    lang: str,
    screen: str,
    size: dict[str, Any],
) -> None:
    page = new_page(**size)
    for view, legal in (("midturn", "midturn-legal"), ("choose", "choose-legal")):
        open_screen(page, static_server, view, legal, lang=lang)
        text = page.locator("body").inner_text()
        assert not re.search(r"\bbabylon\.ui\.", text), text
        assert page.evaluate(
            "document.documentElement.scrollWidth <= document.documentElement.clientWidth"
        )
        shoot(page, artifacts / f"babylon-{lang}-{view}-{screen}.png", full_page=True)


def test_a_tie_broken_on_winks_reads_in_french_with_the_players_names(
    new_page: Callable[..., Page], static_server: str
) -> None:
    """The final table's tie-break is the engine's message, in the page's language and in
    the players' names (the view's `tiebreak` sentence is English with colours)."""
    from engine.babylon import messages
    from engine.babylon.scoring import tiebreak_message
    from engine.messages import render

    view = samples.over_view()
    scores = view["scores"]
    scores["players"][0]["total"] = scores["players"][1]["total"]  # tied on points
    scores["tiebreak"] = "Tied on 95: Yellow wins on winks (25 to 15)."
    scores["tiebreak_message"] = tiebreak_message(scores)
    names = {0: "Ana", 1: "Björn"}
    french = render(messages("fr"), scores["tiebreak_message"], "fr", seat=names.get)
    assert "Björn" in french and "Yellow" not in french
    page = new_page(width=1280, height=860)
    open_screen(page, static_server, "over", mode="replay", lang="fr")
    page.evaluate(
        """async scores => {
          const h = window.__harness;
          // as the room and replay pages do: a seat in a message reads as its player's name
          const i18n = await import('/static/js/i18n.js');
          i18n.setSeatNamer((seat) => ['Ana', 'Björn'][seat]);
          h.view.scores = scores;
          h.screen.renderScores(document.getElementById('score-table'), document.getElementById('winner'),
            document.getElementById('tiebreak'), h.view, {seats: [{seat: 0, name: 'Ana'}, {seat: 1, name: 'Björn'}]});
        }""",
        scores,
    )
    expect(page.locator("#tiebreak")).to_have_text(french)
    expect(page.locator("#tiebreak")).to_be_visible()
