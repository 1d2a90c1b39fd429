/**
 * The room page: connects the websocket with this browser's seat token, and shows the lobby,
 * the game or the final scores as the room's status says. Moves go out over the socket with
 * the version they were made against; every answer (ack, update, error, sync) comes back here.
 *
 * The page knows no game: the first `welcome` names the room's game, whose screen module is
 * imported from the page's manifest (games.js) before anything is drawn; the socket's
 * messages are handled one after the other, so none overtakes that import.
 */

import * as api from "./api.js";
import { Between } from "./between.js";
import { ChatPanel } from "./chat.js";
import { playerName } from "./dom.js";
import { errorText } from "./errors.js";
import { GameFrame } from "./frame.js";
import { gameInfo, loadScreen } from "./games.js";
import { setSeatNamer, t } from "./i18n.js";
import { Lobby } from "./lobby.js";
import { Rematch } from "./rematch.js";
import { SeatNews } from "./seatnews.js";
import { RoomSocket } from "./socket.js";

const $ = (id) => document.getElementById(id);
const root = $("room");
const roomId = root.dataset.roomId;

// A rejoin link carries the seat token in the fragment: keep it and clean the address bar.
const frag = new URLSearchParams(location.hash.slice(1));
if (frag.get("t")) {
  api.saveSeat(roomId, frag.get("t"));
  history.replaceState(null, "", location.pathname + location.search);
}

let room = null;
let you = null;
let presence = null;
let game = null; // the GameFrame, once the game has a view
let screenModule = null; // the room's game's screen module
let pendingMove = null; // {move_id, move, expected_version}
let queue = Promise.resolve();

/** Handle socket messages in order, even when one waits for the game's module. */
function inOrder(handler) {
  return (m) => {
    queue = queue
      .then(() => handler(m))
      .catch((err) => setTimeout(() => { throw err; })); // still reported, the queue goes on
  };
}

/** The room's game's screen module (imported once, before the room is first drawn). */
async function ensureModule(gameId) {
  if (screenModule) return screenModule;
  try {
    screenModule = await loadScreen(gameId);
  } catch (err) {
    $("loading").hidden = false;
    $("loading").textContent = t("room.screen_failed");
    throw err;
  }
  lobby.setScreen(screenModule);
  window.__shell = { game: gameInfo(gameId)?.id ?? null, module: gameInfo(gameId)?.client ?? null }; // for tests
  return screenModule;
}

const socket = new RoomSocket(roomId, {
  token: api.seatToken(roomId),
  handlers: {
    status: showConnection,
    welcome: inOrder(async (m) => {
      await ensureModule(m.room?.game);
      you = m.you;
      presence = m.presence || presence;
      setRoom(m.room);
      if (m.view) (await gameFrame()).setState({ view: m.view, legal: m.legal, version: m.version, events: m.events || [] });
      if (m.view) seatNews.backfill(room);
      between.state(m, you, room);
      resendPending(m.version);
    }),
    sync: inOrder(async (m) => {
      if (m.you) you = m.you;
      if (m.view) {
        if (room && room.status === "open") setRoom({ ...room, status: "playing" });
        (await gameFrame()).setState({ view: m.view, legal: m.legal, version: m.version, events: m.events || [] });
      }
      between.state(m, you, room);
      pendingMove = null;
    }),
    update: inOrder(async (m) => {
      // The update of our own move usually carries its ack (docs/protocol.md).
      if (pendingMove && (m.ack?.move_id === pendingMove.move_id || m.event?.seat === you?.seat)) pendingMove = null;
      if (room && room.status === "open") setRoom({ ...room, status: "playing" });
      if (m.view?.phase === "over" && room) {
        room.status = "finished";
        rematch.update(room, you);
        chat.setRoom(room, you);
      }
      (await gameFrame()).setState({ view: m.view, legal: m.legal, version: m.version, event: m.event });
      between.state(m, you, room);
    }),
    ack: inOrder((m) => {
      if (pendingMove && pendingMove.move_id === m.move_id) pendingMove = null;
    }),
    chat: inOrder((m) => chat.receive(m)),
    error: inOrder((m) => {
      if (m.about === "chat") return chat.refused(m);
      if (m.code === "bad_token" && you?.role === "player") return seatLost(errorText(m));
      if (m.move_id && pendingMove && m.move_id === pendingMove.move_id) pendingMove = null;
      if (m.code === "stale_version") return; // a sync with the fresh view follows
      if (game) game.moveFailed(errorText(m));
    }),
    presence: inOrder((m) => {
      presence = m.presence;
      if (game) game.setPresence(presence);
      if (screenModule) lobby.update(room, you, presence);
    }),
    room: inOrder(async (m) => {
      await ensureModule(m.room?.game);
      if (m.you) you = m.you;
      setRoom(m.room);
    }),
    badToken: () => {
      api.forgetSeat(roomId);
      if (you?.role === "player") seatLost(t("room.seat_lost"));
    },
    gone: () => {
      root.dataset.state = "gone";
      $("loading").hidden = false;
      $("loading").textContent = t("room.gone");
    },
  },
});

/** Our seat was handed on (or left elsewhere): say what happened, in the server's words (in
 * the page's language when the server sent a message), and
 * that the page carries on as a spectator's (the socket reconnects without the token). */
function seatLost(reason) {
  if (leaving) return;
  const box = $("seat-lost");
  if (!box.hidden && $("seat-lost-text").textContent) return; // the first words stay
  $("seat-lost-text").textContent = reason;
  box.hidden = false;
  $("seat-lost-ok").onclick = () => { box.hidden = true; };
}

const rematch = new Rematch({ roomId, getToken: () => socket.token });
// Seats changing hands: a log line and a notice for each (seatnews.js).
const seatNews = new SeatNews(roomId);

// Play between sessions: turn alerts, what is new since the last visit, the seat menu.
let leaving = false; // this page is leaving its seat (its own doing, not news)
const between = new Between(roomId, {
  getToken: () => socket.token,
  onLeaving: () => { leaving = true; },
  onLeft: () => {
    you = null;
    socket.token = null;
    socket.kick(); // back as a spectator
  },
});

// Table chat, under the lobby and then under the game log (chat.js).
const chat = new ChatPanel({ roomId, send: (frame) => socket.send(frame), getToken: () => socket.token });
between.watchChat(chat);

const lobby = new Lobby({
  roomId,
  onSeated: (res) => {
    // reconnect holding the new seat
    socket.token = res.token;
    you = { seat: res.seat, role: "player" };
    setRoom(res.room);
    socket.kick();
  },
});

/** The game's frame, its screen mounted on first use. */
async function gameFrame() {
  if (!game) {
    game = new GameFrame({
      roomId,
      game: room?.game,
      module: screenModule,
      send: sendMove,
      getToken: () => socket.token,
    });
    await game.mount();
    window.__ishtar.dropConnection = (ms) => socket.pause(ms);
    if (presence) game.setPresence(presence);
  }
  if (room) game.setRoom(room, you);
  showSection("game");
  return game;
}

function setRoom(r) {
  if (!r) return;
  room = r;
  // the game's rules page, from the waiting room and the table (docs/client.md)
  for (const a of document.querySelectorAll("a[data-rules]")) a.href = `/rules/${encodeURIComponent(r.game)}`;
  // A seat in a message ("{seat} placed…") reads as the player's name, as everywhere else.
  setSeatNamer((seat) => playerName(room, seat));
  chat.setRoom(r, you);
  rematch.update(r, you);
  between.setRoom(r, you);
  seatNews.update(r, you, !!(you?.is_host || api.hostToken(roomId)));
  if (you && you.role === "player" && you.name) {
    api.rememberRoom(roomId, { name: you.name, players: r.players });
  }
  if (r.status === "open") {
    showSection("lobby");
    lobby.update(r, you, presence);
  } else if (game) {
    game.setRoom(r, you);
  }
}

function showSection(which) {
  $("loading").hidden = true;
  $("lobby").hidden = which !== "lobby";
  $("game").hidden = which !== "game";
  root.dataset.state = which;
  chat.place($(which === "game" ? "side" : "lobby"));
  if (which === "game") document.body.classList.add("in-game");
}

function sendMove(move, version) {
  pendingMove = { type: "move", move, expected_version: version, move_id: api.newMoveId() };
  socket.send(pendingMove);
}

/** After a reconnect, a move that got no answer is sent again (same move_id: never twice). */
function resendPending(version) {
  if (!pendingMove) return;
  if (version !== pendingMove.expected_version) {
    pendingMove = null;
    return;
  }
  socket.send(pendingMove);
}

function showConnection(state) {
  const box = $("conn");
  const known = ["connecting", "reconnecting", "online", "offline", "gone"];
  const text = known.includes(state) ? t(`conn.${state}`) : state;
  box.dataset.state = state === "online" ? "online" : state === "offline" ? "offline" : "connecting";
  box.querySelector("span").textContent = text;
  box.title = t("conn.state", { state: text });
}

window.addEventListener("online", () => socket.kick());
document.addEventListener("visibilitychange", () => {
  if (document.visibilityState === "visible" && !socket.ws) socket.kick();
});

between.prime(socket);
socket.connect();
