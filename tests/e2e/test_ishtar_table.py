"""Ishtar's screen at the table (issue 18), in Chromium without a server: the module the shell
imports (static/games/ishtar/screen.js) is mounted in a copy of the room page's layout with a
stand-in `ctx` (the shell's real action bar; `send` and `why` recorded) and fed positions the
engine itself produced (tests/e2e/ishtar_positions.py): readable tiles on the carpet and in
hand, the lost-assistant warning in the placement preview, one's own panel first and the log's
column, touch turns (two taps everywhere, "Place here", a tip that keeps clear of the tools),
cards in words instead of `title` jargon, pieces popping in (not under reduced motion), "Next
spot" keeping the spot in sight, the replay bar clear of the board, the final table's tie-break
rows apart. Screenshots: ishtar-*.png (desktop 1280×800, phone 390×844)."""

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

from tests.e2e.catalogues import LANG_SCRIPT, catalogue_body
from tests.e2e.ishtar_positions import samples
from tests.e2e.shots import shoot

pytestmark = [pytest.mark.browser]

ROOT = Path(__file__).resolve().parents[2]
REASON = "the tile must touch a fountain or a vegetation tile placed earlier"
DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844, "is_mobile": True, "has_touch": True}

# The room page's game layout (templates/_game.html), the screen mounted in it by hand.
HARNESS = """<!doctype html>
<html><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
__LANG__
<link rel="stylesheet" href="/static/css/shell.css"><link rel="stylesheet" href="/static/css/replay.css"></head>
<body class="__BODY__">
<header class="topbar"><span class="brand-name">Ishtar <em>Online</em></span></header>
<section class="game" id="game">
  <div class="board-wrap" id="board-wrap">
    __BAR__
    <div class="stage" id="stage"></div>
  </div>
  <aside class="side" id="side">
    <div class="game-panels" id="game-panels"></div>
    <section class="panel log-panel"><h2>Game log</h2><ol class="log" id="log"></ol></section>
  </aside>
</section>
<table id="score-table"></table><p id="winner"></p><p id="tiebreak"></p>
<script type="module">
import { ActionBar } from "/static/js/actionbar.js";
const q = new URLSearchParams(location.search);
const get = async (name) => (await fetch(`/sample/${name}.json`)).json();
const mode = q.get("mode") || "play";
const mod = await import("/static/games/ishtar/screen.js");
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
const legal = mode === "play" ? await get(`${q.get("view")}-legal`) : [];
const room = { seats: names.slice(0, view.players.length).map((name, seat) => ({ seat, name })) };
const log = document.getElementById("log");
for (let i = 1; i <= 40; i += 1) {
  const li = document.createElement("li");
  li.textContent = `Move ${i}: ${names[i % view.players.length]} placed a line tile and collected 1 red gem`;
  log.append(li);
}
const show = (v = view, l = legal, event = null) => screen.update({ view: v, legal: l, version: 1, event, room, presence: { connected_seats: [0, 1] } });
show();
window.__harness = { mod, screen, sent, asked, view, legal, show };
await new Promise((r) => setTimeout(r, 80));
requestAnimationFrame(() => requestAnimationFrame(() => { document.body.dataset.ready = "1"; }));
</script></body></html>
""".replace("__REASON__", json.dumps(REASON)).replace("__LANG__", LANG_SCRIPT)

PLAY_BAR = """<div class="actionbar" id="actionbar" aria-live="polite">
      <div class="prompt"><strong id="prompt"></strong><span id="subprompt"></span></div>
      <div class="choices" id="choices"></div>
    </div>"""
REPLAY_BAR = """<div class="actionbar idle replay-bar" id="replay-bar">
      <div class="prompt"><strong>Move 12</strong><span>Ana placed a line tile</span></div>
      <div class="choices replay-controls"><button class="choice">«</button><button class="choice">◀</button>
      <input type="range"><button class="choice">▶</button><button class="choice">»</button></div>
    </div>"""

SAMPLES = {path: json.dumps(value).encode() for path, value in samples().items()}


class Handler(SimpleHTTPRequestHandler):
    """Files of the repository, the harness page, and the positions at /sample/<name>.json."""

    def do_GET(self) -> None:
        path, _, query = self.path.partition("?")
        if path == "/ishtar-harness.html":
            replay = "mode=replay" in query
            page = HARNESS.replace("__BAR__", REPLAY_BAR if replay else PLAY_BAR)
            page = page.replace("__BODY__", "page-replay" if replay else "page-room")
            self.reply(page.encode(), "text/html; charset=utf-8")
            return
        body = SAMPLES.get(path) or catalogue_body(path)
        if body is None:
            super().do_GET()
            return
        self.reply(body, "application/json")

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
    page: Page, base: str, view: str, mode: str = "play", lang: str = "en"
) -> None:
    page.goto(f"{base}/ishtar-harness.html?view={view}&mode={mode}&lang={lang}")
    page.wait_for_selector("body[data-ready='1']", state="attached")


def sent(page: Page) -> list[dict[str, Any]]:
    return page.evaluate("() => window.__harness.sent")  # type: ignore[no-any-return]


def legal(page: Page) -> list[dict[str, Any]]:
    return page.evaluate("() => window.__harness.legal")  # type: ignore[no-any-return]


def place_point(page: Page, action: dict[str, Any]) -> tuple[float, float]:
    x, y = page.evaluate("a => window.__harness.screen.hook.placePoint(a)", action)
    return x, y


def hex_point(page: Page, cell: list[int]) -> tuple[float, float]:
    x, y = page.evaluate("c => window.__harness.screen.hook.hexToClient(c)", cell)
    return x, y


def rotate_to(page: Page, rotation: int) -> None:
    for _ in range(6):
        if page.evaluate("() => window.__harness.screen.hook.rotation") == rotation:
            return
        page.keyboard.press("r")
    raise AssertionError("the tile does not rotate")


def overlaps(a: dict[str, float], b: dict[str, float]) -> bool:
    return not (
        a["x"] + a["width"] <= b["x"]
        or b["x"] + b["width"] <= a["x"]
        or a["y"] + a["height"] <= b["y"]
        or b["y"] + b["height"] <= a["y"]
    )


# ---- point 1: the tiles one chooses between can be read --------------------------------


def test_a_piles_top_tile_opens_large_with_its_spaces_and_cost_on_hover(
    new_page: Callable[..., Page], static_server: str, artifacts: Path
) -> None:
    page = new_page(**DESKTOP)
    open_screen(page, static_server, "choose")
    view = page.evaluate("() => window.__harness.view")
    i, pile = next((i, p) for i, p in enumerate(view["carpet"]["piles"]) if p["top"])
    page.hover(f".pile[data-pile='{i}']")
    card = page.locator("#ish-tip")
    expect(card).to_be_visible()
    tile = card.locator("img.tip-tile")
    box = tile.bounding_box()
    assert box is not None and box["width"] >= 170 and box["height"] >= 120
    # the flowers and the icon in words, space by space, and what reaching it costs
    spaces = card.locator(".tip-spaces li")
    expect(spaces).to_have_count(3)
    first = pile["top"]["spaces"][0]
    if first["kind"] == "flower":
        expect(spaces.first).to_contain_text(f"{first['flowers']} flower")
    options = [
        a
        for a in legal(page)
        if a["action"]["type"] == "choose" and a["action"]["pile"] == i
    ]
    if options:
        expect(card).to_contain_text("To reach it")
    # the board's own paint, large: the tile's flower green fills much of the card's picture
    green = page.evaluate(
        """async () => {
          const img = document.querySelector('#ish-tip img.tip-tile');
          await img.decode();
          const c = document.createElement('canvas');
          c.width = img.naturalWidth;
          c.height = img.naturalHeight;
          const g = c.getContext('2d');
          g.drawImage(img, 0, 0);
          const d = g.getImageData(0, 0, c.width, c.height).data;
          let n = 0;
          for (let k = 0; k < d.length; k += 4) if (d[k + 1] > d[k] + 20 && d[k + 1] > d[k + 2] + 10) n += 1;
          return n / (c.width * c.height);
        }"""
    )
    assert green > 0.25
    shoot(page, artifacts / "ishtar-carpet-popover.png")
    page.mouse.move(5, 400)
    expect(card).to_be_hidden()
    assert sent(page) == []  # hovering takes nothing


def test_a_click_that_takes_a_pile_closes_its_card(
    new_page: Callable[..., Page], static_server: str
) -> None:
    page = new_page(**DESKTOP)
    open_screen(page, static_server, "choose")
    free = next(
        a["action"]
        for a in legal(page)
        if a["action"]["type"] == "choose" and not a["action"]["pay"]
    )
    pile = page.locator(f".pile[data-pile='{free['pile']}']")
    pile.hover()
    card = page.locator("#ish-tip")
    expect(card).to_be_visible()
    pile.click()
    assert sent(page) == [free]
    expect(card).to_be_hidden()
    # the panel redrawn under the still pointer does not bring it back; pointing again does
    page.wait_for_timeout(300)
    expect(card).to_be_hidden()
    page.mouse.move(5, 400)
    pile.hover()
    expect(card).to_be_visible()


def test_a_card_left_over_the_board_lets_the_click_through_to_it(
    new_page: Callable[..., Page], static_server: str
) -> None:
    """While placing, a pile's card (nothing to press in it) opens over the board beside the
    side column. Moving on to the board through it closes it, and the board, not the card,
    takes what the pointer does there: a card once caught the click meant for a spot."""
    page = new_page(**DESKTOP)
    open_screen(page, static_server, "lost-assistant")
    page.hover(".pile[data-pile='0']")
    card = page.locator("#ish-tip")
    expect(card).to_be_visible()
    expect(card.locator("button")).to_have_count(0)
    box = card.bounding_box()
    board = page.locator("#board").bounding_box()
    assert box is not None and board is not None
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    # the card stands over the board, and the point under it is the board's
    assert board["x"] < x < board["x"] + board["width"]
    under = page.evaluate("([x, y]) => document.elementFromPoint(x, y)?.id", [x, y])
    assert under == "board"
    page.mouse.move(x, y)
    expect(card).to_be_hidden()


def test_on_a_phone_a_tap_on_a_pile_opens_its_card_and_its_button_takes_it(
    new_page: Callable[..., Page], static_server: str, artifacts: Path
) -> None:
    page = new_page(**PHONE)
    open_screen(page, static_server, "choose")
    free = [
        a["action"]
        for a in legal(page)
        if a["action"]["type"] == "choose" and not a["action"]["pay"]
    ]
    pile = free[0]["pile"]
    target = page.locator(f".pile[data-pile='{pile}']")
    target.scroll_into_view_if_needed()
    box = target.bounding_box()
    assert box is not None
    page.touchscreen.tap(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    card = page.locator("#ish-tip")
    expect(card).to_be_visible()
    assert sent(page) == []  # a tap reads first
    shoot(page, artifacts / "ishtar-phone-carpet.png")
    button = card.locator(f"[data-act='take-{pile}']")
    bb = button.bounding_box()
    assert bb is not None
    page.touchscreen.tap(bb["x"] + bb["width"] / 2, bb["y"] + bb["height"] / 2)
    assert sent(page) == [free[0]]


def test_the_tile_in_hand_is_drawn_large_and_opens_its_card(
    new_page: Callable[..., Page], static_server: str
) -> None:
    page = new_page(**DESKTOP)
    open_screen(page, static_server, "lost-assistant")
    hand = page.locator("#actionbar .hand-tile img")
    box = hand.bounding_box()
    assert box is not None and box["width"] >= 90 and box["height"] >= 64
    page.hover("#actionbar .hand-tile")
    expect(page.locator("#ish-tip")).to_contain_text("1 flower with the assistant icon")


# ---- point 3: an assistant covers the icon, the flowers stay in sight ---------------------


def test_an_assistant_on_a_two_flower_space_covers_its_icon_not_its_flowers(
    new_page: Callable[..., Page], static_server: str, artifacts: Path
) -> None:
    page = new_page(**DESKTOP)
    open_screen(page, static_server, "assistant-two-flowers", mode="replay")
    page.evaluate(
        """() => {
          const r = window.__harness.screen.renderer;
          const [x, y] = r.hexToCanvas([1, 0]);
          r.zoomAt(x, y, 5);
        }"""
    )
    found = page.evaluate(
        """async () => {
          const paint = await import('/static/games/ishtar/paint.js');
          const { HEX } = await import('/static/games/ishtar/render.js');
          const r = window.__harness.screen.renderer;
          r.draw();
          const ctx = r.canvas.getContext('2d');
          const d = r.size.dpr;
          const s = HEX * r.cam.k;
          const [x, y] = r.hexToCanvas([1, 0]);
          const px = (u, v) => Array.from(ctx.getImageData(Math.round(u * d), Math.round(v * d), 1, 1).data);
          // points over the icon's disc, and the hearts of the two flowers
          const [ix, iy] = paint.iconSpot(x, y, s);
          const R = s * paint.ICON_SPOT.r;
          const disc = [];
          for (let a = 0; a < 12; a += 1) for (const f of [0.35, 0.7, 0.92]) disc.push(px(ix + Math.cos(a * Math.PI / 6) * R * f, iy + Math.sin(a * Math.PI / 6) * R * f));
          const hearts = paint.flowerSpots(2).map(([fx, fy]) => px(x + fx * s, y + fy * s));
          return { disc, hearts };
        }"""
    )
    light = [p for p in found["disc"] if 0.3 * p[0] + 0.59 * p[1] + 0.11 * p[2] > 200]
    # the icon is a cream disc with an ink glyph: none of its cream shows round the pawn,
    # and the (blue) pawn has nothing of an icon's light disc either
    assert light == [], light
    for heart in found["hearts"]:  # both flowers still show their golden hearts
        assert heart[:3] == pytest.approx([0xF2, 0xB6, 0x30], abs=14)
    shoot(page, artifacts / "ishtar-assistant-two-flowers.png")


def test_the_special_step_marks_the_assistants_space_from_its_preview(
    new_page: Callable[..., Page], static_server: str, artifacts: Path
) -> None:
    """Where the assistant would stand is the server's word (its preview's ``at``): the
    board marks that space and the browser looks for no icon itself."""
    page = new_page(width=1400, height=900)
    open_screen(page, static_server, "special-assistant")
    entry = next(e for e in legal(page) if e["action"]["type"] == "assistant")
    marks = page.evaluate("() => window.__harness.screen.renderer.overlay.marks")
    assert marks == [entry["preview"]["at"]]
    expect(page.locator('#actionbar [data-act="assistant"]')).to_be_visible()
    shoot(page, artifacts / "ishtar-special-assistant.png")


# ---- point 4: a lost assistant is said before the click ----------------------------------


def test_the_placement_preview_says_no_assistant_is_possible(
    new_page: Callable[..., Page], static_server: str, artifacts: Path
) -> None:
    page = new_page(**DESKTOP)
    open_screen(page, static_server, "lost-assistant")
    entries = legal(page)
    lost = next(
        e
        for e in entries
        if e["preview"].get("no_assistant") == "that flowerbed has one"
    )
    fine = next(
        e
        for e in entries
        if e["action"]["type"] == "place" and "no_assistant" not in e["preview"]
    )
    rotate_to(page, lost["action"]["rotation"])
    page.mouse.move(*place_point(page, lost["action"]))
    tip = page.locator("#tooltip")
    expect(tip).to_be_visible()
    expect(tip.locator("[data-warn='no-assistant']")).to_have_text(
        "No assistant possible: that flowerbed has one"
    )
    shoot(page, artifacts / "ishtar-no-assistant-preview.png")
    rotate_to(page, fine["action"]["rotation"])
    page.mouse.move(*place_point(page, fine["action"]))
    expect(tip).to_be_visible()
    expect(tip.locator("[data-warn]")).to_have_count(0)


# ---- point 5: one's own panel in sight while choosing; the log's room ---------------------


def test_your_panel_comes_first_and_the_log_has_a_column_on_wide_screens(
    new_page: Callable[..., Page], static_server: str, artifacts: Path
) -> None:
    page = new_page(**DESKTOP)
    open_screen(page, static_server, "choose")
    me = page.locator("#me-panel")
    expect(me).to_be_visible()
    expect(me.locator(".player.me .skills .skill")).to_have_count(10)
    mine = me.bounding_box()
    carpet = page.locator("#carpet").bounding_box()
    assert mine is not None and carpet is not None
    assert mine["y"] < carpet["y"]  # above the carpet: in sight while choosing
    assert mine["y"] + mine["height"] <= DESKTOP["height"]
    expect(page.locator("#players .player")).to_have_count(1)  # the other gardener
    shoot(page.locator("#side"), artifacts / "ishtar-your-panel.png")
    log = page.locator("#log").bounding_box()
    assert log is not None and log["height"] > 220  # more than the old 220 px box

    # on a phone the panels stack under the board: the carpet first, one's own right after
    phone = new_page(**PHONE)
    open_screen(phone, static_server, "choose")
    carpet = phone.locator(".carpet-panel").bounding_box()
    mine = phone.locator("#me-panel").bounding_box()
    assert carpet is not None and mine is not None
    assert carpet["y"] < PHONE["height"] and mine["y"] > carpet["y"]
    assert mine["y"] - (carpet["y"] + carpet["height"]) < 40

    wide = new_page(width=1600, height=900)
    open_screen(wide, static_server, "choose")
    column = wide.locator(".log-panel").bounding_box()
    board = wide.locator("#board").bounding_box()
    side = wide.locator("#side").bounding_box()
    assert column is not None and board is not None and side is not None
    assert column["height"] > 800  # the whole height under the top bar
    assert (
        column["x"] >= side["x"] + side["width"] - 1
    )  # beside the panels, not under them
    assert board["x"] + board["width"] <= side["x"] + 1
    shoot(wide, artifacts / "ishtar-wide-log.png")


# ---- point 9: a turn on a phone ----------------------------------------------------------


def test_on_a_phone_a_tile_is_tried_then_placed_here_and_the_tip_keeps_clear_of_rotate(
    new_page: Callable[..., Page], static_server: str, artifacts: Path
) -> None:
    page = new_page(**PHONE)
    open_screen(page, static_server, "lost-assistant")
    page.locator("#board").scroll_into_view_if_needed()
    entries = [e for e in legal(page) if e["action"]["type"] == "place"]
    rotation = page.evaluate("() => window.__harness.screen.hook.rotation")
    action = next(e["action"] for e in entries if e["action"]["rotation"] == rotation)
    # "Place here" is in the bar from the start, greyed: the bar does not grow under the finger
    expect(page.locator("[data-act='place-here']")).to_be_disabled()
    # an illegal spot first: the red tip must not cover the rotate button
    cells = page.evaluate(
        "() => [...window.__harness.screen.renderer.cells.values()].map(c => [c.q, c.r])"
    )
    tools = page.locator("#rotate-btn").bounding_box()
    assert tools is not None
    near = min(
        cells,
        key=lambda c: (
            abs(hex_point(page, c)[0] - tools["x"])
            + abs(hex_point(page, c)[1] - tools["y"])
        ),
    )
    page.touchscreen.tap(*hex_point(page, near))
    tip = page.locator("#tooltip")
    expect(tip).to_be_visible()
    box = tip.bounding_box()
    assert box is not None and not overlaps(box, tools)
    # a legal spot: one tap previews it, "Place here" appears, nothing is sent yet
    x, y = place_point(page, action)
    page.touchscreen.tap(x, y)
    assert place_point(page, action) == (
        x,
        y,
    )  # the board kept still for the second tap
    place_here = page.locator("[data-act='place-here']")
    expect(place_here).to_be_enabled()
    assert sent(page) == []
    box = tip.bounding_box()
    assert box is not None and not overlaps(box, tools)
    assert not (
        box["x"] <= x <= box["x"] + box["width"]
        and box["y"] <= y <= box["y"] + box["height"]
    )
    shoot(page, artifacts / "ishtar-phone-turn.png")
    pb = place_here.bounding_box()
    assert pb is not None
    page.touchscreen.tap(pb["x"] + pb["width"] / 2, pb["y"] + pb["height"] / 2)
    assert sent(page) == [action]


def test_on_a_phone_a_blooming_token_and_a_tree_take_two_taps_too(
    new_page: Callable[..., Page], static_server: str
) -> None:
    page = new_page(**PHONE)
    open_screen(page, static_server, "bloom")
    token = legal(page)[0]["action"]
    button = page.locator(f"[data-act='token-{token['token']}']")
    bb = button.bounding_box()
    assert bb is not None
    page.touchscreen.tap(
        bb["x"] + bb["width"] / 2, bb["y"] + bb["height"] / 2
    )  # reads the token
    expect(page.locator("#ish-tip")).to_contain_text("A blooming token of")
    page.locator("#ish-tip [data-act^='lay-']").tap()
    page.locator("#board").scroll_into_view_if_needed()
    entry = next(
        e["action"] for e in legal(page) if e["action"]["token"] == token["token"]
    )
    for cell in entry["cells"]:
        page.touchscreen.tap(*hex_point(page, cell))
    assert sent(page) == []  # the last space waits for a second tap or "Place here"
    page.touchscreen.tap(*hex_point(page, entry["cells"][-1]))
    assert sent(page) == [entry]

    page = new_page(**PHONE)
    open_screen(page, static_server, "plant")
    plant = next(e["action"] for e in legal(page) if e["action"]["type"] == "plant")
    page.locator(f"[data-act='plant-{plant['card']}']").tap()
    page.locator("#board").scroll_into_view_if_needed()
    page.touchscreen.tap(*hex_point(page, plant["at"]))
    assert sent(page) == []
    page.locator("[data-act='place-here']").tap()
    assert sent(page) == [plant]


def test_on_a_phone_a_skills_description_opens_on_tap(
    new_page: Callable[..., Page], static_server: str
) -> None:
    page = new_page(**PHONE)
    open_screen(page, static_server, "special")
    skill = page.locator("#me .skill[data-skill='F']")
    skill.scroll_into_view_if_needed()
    skill.tap()
    card = page.locator("#ish-tip")
    expect(card).to_be_visible()
    text = page.evaluate(
        "() => window.__harness.screen.catalogue.skills.find(s => s.skill === 'F').text"
    )
    expect(card).to_contain_text(text)
    assert sent(page) == []
    page.locator("#ish-tip [data-act='unlock-F']").tap()
    expect(page.locator("#prompt")).to_have_text("Unlock skill F")
    # an upper skill, locked: its words and what it needs, on tap as well
    upper = page.locator("#me .skill[data-skill='A']")
    upper.tap()
    expect(card).to_contain_text("Needs skill F")


def test_a_skills_description_says_the_numbers_of_the_games_edition(
    new_page: Callable[..., Page], static_server: str
) -> None:
    """The screen reads the skill texts of the edition the view names (docs/games/ishtar/
    rules.md, "Editions"): skill C's 3 VP in editions 1 and 4, 4 in the harness's tuned
    one, and the default edition's (4) limits on B and E, in English, French and Dutch."""
    for view, lang, letter, words in (
        ("special", "en", "C", "+3 VP per fountain you control"),
        ("special-default", "en", "C", "+3 VP per fountain you control"),
        ("special-tuned", "en", "C", "+4 VP per fountain you control"),
        ("special-tuned", "fr", "C", "+4 PV par fontaine que vous contrôlez"),
        (
            "special-default",
            "en",
            "B",
            "3 VP per sacred tablet next to a flowerbed you control, at most 10 VP",
        ),
        ("special-default", "fr", "B", "un parterre que vous contrôlez, 10 PV au plus"),
        ("special-default", "nl", "B", "een bloembed dat je beheerst, hoogstens 10 OP"),
        (
            "special-default",
            "en",
            "E",
            "1 VP per flower space in flowerbeds you control, at most 8 VP",
        ),
        (
            "special-default",
            "fr",
            "E",
            "des parterres que vous contrôlez, 8 PV au plus",
        ),
        (
            "special-default",
            "nl",
            "E",
            "in bloembedden die je beheerst, hoogstens 8 OP",
        ),
        ("special-tuned", "en", "E", "1 VP per flower space in flowerbeds you control"),
    ):
        page = new_page(**PHONE)
        open_screen(page, static_server, view, lang=lang)
        skill = page.locator(f"#me .skill[data-skill='{letter}']")
        skill.scroll_into_view_if_needed()
        skill.tap()
        expect(page.locator("#ish-tip")).to_contain_text(words)
        if letter == "E" and view == "special-tuned":  # edition 1's E: no limit
            expect(page.locator("#ish-tip")).not_to_contain_text("at most")


# ---- point 11: the rough edges -----------------------------------------------------------


def test_no_jargon_in_title_tooltips(
    new_page: Callable[..., Page], static_server: str
) -> None:
    for name in ("choose", "bloom", "special", "plant"):
        page = new_page(**DESKTOP)
        open_screen(page, static_server, name)
        titles = page.evaluate(
            "() => [...document.querySelectorAll('#game-panels [title], #actionbar [title], #stage canvas[title]')].map(e => e.title)"
        )
        # the one title left is the undo button's, the engine's own words for the step
        assert all(t.startswith("Take back: ") for t in titles), (name, titles)
        assert not any(re.search(r"\bF\d|Token ", t) for t in titles), (name, titles)
    page.hover(".carpet-centre .token[data-token='F1F2']")
    expect(page.locator("#ish-tip")).to_contain_text(
        "A blooming token of 1 flower and 2 flowers"
    )


def test_the_running_score_and_the_fountains_held_show_during_play(
    new_page: Callable[..., Page], static_server: str
) -> None:
    page = new_page(**DESKTOP)
    open_screen(page, static_server, "choose")
    view = page.evaluate("() => window.__harness.view")
    standing = view["standing"]
    assert view["scores"] is None and standing is not None
    for p in standing["players"]:
        chip = page.locator(f".player[data-seat='{p['seat']}'] .score-chip")
        expect(chip).to_have_text(f"{p['total']} VP")
        held = p["fountains"]
        chips = page.locator(f".player[data-seat='{p['seat']}'] .fountain-chip")
        expect(chips).to_have_count(len(held))
    holders = page.evaluate(
        "() => Object.fromEntries([...window.__harness.screen.renderer.holders])"
    )
    expected: dict[str, list[int]] = {}
    for p in standing["players"]:
        for f in p["fountains"]:
            expected.setdefault(f"{f['at'][0]},{f['at'][1]}", []).append(p["seat"])
    assert holders == expected and expected  # someone holds a fountain in this position


def test_pieces_pop_in_unless_motion_is_reduced(
    new_page: Callable[..., Page], static_server: str
) -> None:
    grow = """() => {
      const h = window.__harness;
      const v = structuredClone(h.view);
      const s = v.spaces.find((x) => x.kind === 'grass' && x.tree === null);
      s.tree = v.market[0].card;
      v.spaces.push({ q: 9, r: 9, kind: 'grass', flowers: 0, icon: null, tile: 'x', token: null, assistant: null, tree: null });
      h.show(v, []);
      const r = h.screen.renderer;
      return { keys: [...r.appearing.keys()], tree: `${s.q},${s.r}` };
    }"""
    page = new_page(**DESKTOP)
    open_screen(page, static_server, "plant")
    popped = page.evaluate(grow)
    assert popped["tree"] in popped["keys"] and "9,9" in popped["keys"]
    calm = new_page(**DESKTOP, reduced_motion="reduce")
    open_screen(calm, static_server, "plant")
    assert calm.evaluate(grow)["keys"] == []


def test_next_spot_stays_in_sight_when_zoomed(
    new_page: Callable[..., Page], static_server: str
) -> None:
    page = new_page(**DESKTOP)
    open_screen(page, static_server, "lost-assistant")
    page.evaluate(
        "() => { const r = window.__harness.screen.renderer; r.zoomAt(200, 200, 5); }"
    )
    board = page.locator("#board").bounding_box()
    assert board is not None
    for _ in range(12):
        page.locator("[data-act='next']").click()
        cursor = page.evaluate("() => window.__harness.screen.ui.cursor")
        x, y = hex_point(page, cursor)
        assert board["x"] < x < board["x"] + board["width"]
        assert board["y"] < y < board["y"] + board["height"]


def test_the_replay_bar_does_not_cover_the_board(
    new_page: Callable[..., Page], static_server: str
) -> None:
    page = new_page(**DESKTOP)
    open_screen(page, static_server, "choose", mode="replay")
    bar = page.locator("#replay-bar").bounding_box()
    assert bar is not None
    top = page.evaluate(
        """() => {
          const r = window.__harness.screen.renderer;
          return Math.min(...[...r.cells.values()].map((c) => r.hexToClient([c.q, c.r])[1]));
        }"""
    )
    assert top > bar["y"] + bar["height"]


def test_the_final_table_keeps_the_tie_break_rows_apart(
    new_page: Callable[..., Page], static_server: str
) -> None:
    page = new_page(**DESKTOP)
    open_screen(page, static_server, "over")
    page.evaluate(
        """() => {
          const h = window.__harness;
          h.screen.renderScores(document.getElementById('score-table'), document.getElementById('winner'),
            document.getElementById('tiebreak'), h.view, { seats: [{ seat: 0, name: 'Ana' }, { seat: 1, name: 'Björn' }] });
        }"""
    )
    points = page.locator("#score-table tbody.points")
    ties = page.locator("#score-table tbody.tiebreaks")
    expect(points.locator("tr.total")).to_have_count(1)
    expect(ties.locator("th[scope='rowgroup']")).to_contain_text("Tie-breaks")
    expect(ties).to_contain_text("Trees planted")
    expect(points).not_to_contain_text("Trees planted")
    expect(points).not_to_contain_text("Gems left")


# ---- languages: the screen in French and in Dutch (issue 18, "Languages") ----------------

FR_SHAPE = {"line": "Ligne", "chevron": "Chevron", "triangle": "Triangle"}


def test_the_screen_reads_in_french_cards_buttons_and_the_final_table(
    new_page: Callable[..., Page], static_server: str, artifacts: Path
) -> None:
    page = new_page(**DESKTOP)
    open_screen(page, static_server, "choose", lang="fr")
    assert page.evaluate("document.documentElement.lang") == "fr"
    expect(page.locator("#prompt")).to_have_text("Choisissez une tuile Végétation")
    expect(page.locator(".carpet-panel h2")).to_have_text("Tapis")
    view = page.evaluate("() => window.__harness.view")
    options = [a for a in legal(page) if a["action"]["type"] == "choose"]
    i, pile = next(
        (i, p)
        for i, p in enumerate(view["carpet"]["piles"])
        if p["top"] and any(a["action"]["pile"] == i for a in options)
    )
    page.hover(f".pile[data-pile='{i}']")
    card = page.locator("#ish-tip")
    expect(card.locator(".tip-title")).to_have_text(
        f"Pile {i + 1} · {FR_SHAPE[pile['top']['shape']]}"
    )
    expect(card).to_contain_text("Pour l’atteindre\u00a0:")
    cheapest = min(
        (a["action"]["pay"] for a in options if a["action"]["pile"] == i), key=len
    )
    expect(card.locator(f"[data-act='take-{i}']")).to_have_text(
        "Choisir cette pile" if cheapest else "Prendre cette tuile"
    )
    shoot(page, artifacts / "ishtar-fr-choose.png")

    # a skill's card: its French title and description
    open_screen(page, static_server, "special", lang="fr")
    page.hover("#me .skill[data-skill='F']")
    expect(card.locator(".tip-title")).to_have_text("Compétence F · Pas gratuit")
    expect(card).to_contain_text(
        "à chaque tour, le premier pas payant de l’arrosoir est gratuit"
    )
    expect(page.locator("[data-act='pass']")).to_contain_text("Passer")
    shoot(page, artifacts / "ishtar-fr-special.png")

    # the final table's categories and tie-break rows
    open_screen(page, static_server, "over", lang="fr")
    page.evaluate(
        """() => {
          const h = window.__harness;
          h.screen.renderScores(document.getElementById('score-table'), document.getElementById('winner'),
            document.getElementById('tiebreak'), h.view, { seats: [{ seat: 0, name: 'Ana' }, { seat: 1, name: 'Björn' }] });
        }"""
    )
    rows = page.locator("#score-table tbody.points th[scope='row']").all_inner_texts()
    assert rows[:3] == ["Arbres", "Fleurs", "Fontaines"]
    assert rows[-1] == "Total"
    assert all(r.startswith("Compétence ") for r in rows[3:-1]), rows
    ties = page.locator("#score-table tbody.tiebreaks th[scope='row']")
    assert ties.all_inner_texts() == ["Arbres plantés", "Gemmes restantes"]
    expect(
        page.locator("#score-table tbody.tiebreaks th[scope='rowgroup']")
    ).to_have_text("Départages (non ajoutés au total)")
    scores = page.evaluate("() => window.__harness.view.scores")
    names = ["Ana", "Björn"]
    winners = [names[w] for w in scores["winners"]]
    best = next(p["total"] for p in scores["players"] if p["seat"] in scores["winners"])
    expect(page.locator("#winner")).to_have_text(
        f"{winners[0]} est le Jardinier du Roi avec {best} points"
        if len(winners) == 1
        else f"{' et '.join(winners)} se partagent la victoire avec {best} points"
    )


@pytest.mark.parametrize("lang", ["fr", "nl"])
@pytest.mark.parametrize(
    ("screen", "size"), [("desktop", DESKTOP | {"height": 860}), ("phone", PHONE)]
)
def test_screenshots_in_french_and_dutch_keep_the_bar_and_panels_whole(
    new_page: Callable[..., Page],
    static_server: str,
    artifacts: Path,
    lang: str,
    screen: str,
    size: dict[str, Any],
) -> None:
    page = new_page(**size)
    for view in ("choose", "lost-assistant", "special"):
        open_screen(page, static_server, view, lang=lang)
        # no key shows as itself: every text the screen drew is in this language
        text = page.locator("body").inner_text()
        assert not re.search(r"\bishtar\.ui\.", text), text
        # the longer words stay inside the page: nothing scrolls sideways
        assert page.evaluate(
            "document.documentElement.scrollWidth <= document.documentElement.clientWidth"
        )
        shoot(page, artifacts / f"ishtar-{lang}-{view}-{screen}.png")


# Every text of the side panels against its box, and each skill name's lines: where a line
# of a name begins, the one before must end at a space or a soft hyphen (drawn as "-").
SIDE_TEXT = """() => {
  const side = document.getElementById('side').getBoundingClientRect();
  const out = { overflowing: [], outside: [], clipped: [], breaks: [], names: 0 };
  const say = (e) => `${e.className || e.tagName}: ${e.textContent.trim().slice(0, 40)}`;
  for (const e of document.querySelectorAll('#game-panels *')) {
    const r = e.getBoundingClientRect();
    if (!r.width) continue;
    if (r.left < side.left - 0.5 || r.right > side.right + 0.5) out.outside.push(say(e));
    const words = [...e.childNodes].some((n) => n.nodeType === 3 && n.data.trim());
    if (words && e.clientWidth && e.scrollWidth > e.clientWidth + 1) out.overflowing.push(say(e));
  }
  for (const cell of document.querySelectorAll('#game-panels .skill')) {
    const box = cell.getBoundingClientRect();
    for (const e of cell.querySelectorAll('*')) {
      const r = e.getBoundingClientRect();
      if (r.width && (r.left < box.left - 0.5 || r.right > box.right + 0.5 || r.bottom > box.bottom + 0.5)) out.clipped.push(say(e));
    }
  }
  for (const span of document.querySelectorAll('#game-panels .skill-name')) {
    out.names += 1;
    const node = span.firstChild;
    let top = null;
    for (let i = 0; i < node.data.length; i += 1) {
      const range = document.createRange();
      range.setStart(node, i);
      range.setEnd(node, i + 1);
      const rect = [...range.getClientRects()].filter((x) => x.width > 0).pop();
      if (!rect) continue;
      if (top !== null && rect.top > top + 2 && !' \\u00ad'.includes(node.data[i - 1])) {
        out.breaks.push(`${node.data.slice(0, i)}|${node.data.slice(i)}`);
      }
      top = rect.top;
    }
  }
  return out;
}"""


@pytest.mark.parametrize("lang", ["fr", "nl"])
@pytest.mark.parametrize(
    ("screen", "size"),
    [("desktop", {"width": 1400, "height": 900}), ("phone", PHONE)],
)
def test_the_side_panels_break_no_word_and_let_no_text_out_of_its_box(
    new_page: Callable[..., Page],
    static_server: str,
    artifacts: Path,
    lang: str,
    screen: str,
    size: dict[str, Any],
) -> None:
    """Issue 36, point 6: in the narrow cells of the skill boards a long name ("Edelstenen",
    "Terugroepen", "Fontaines") breaks only at a space or at the soft hyphens its catalogue
    gives ("Edel-/stenen"; before: "Edelstene/n"), and no text of the side panels overflows
    or is clipped (a skill just unlocked shows its gems too)."""
    page = new_page(**size)
    open_screen(page, static_server, "reserve", lang=lang)
    found = page.evaluate(SIDE_TEXT)
    assert found["names"] == 20  # two gardeners' boards
    assert found["breaks"] == [], found
    assert found["overflowing"] == [] and found["outside"] == [], found
    assert found["clipped"] == [], found
    shoot(
        page.locator(".player").first, artifacts / f"ishtar-skills-{lang}-{screen}.png"
    )
