/**
 * The tab's title: what the page says (the turn, the game over) with a count of chat
 * messages not read yet in front — "(2) Your turn · Ishtar Online" — so a player in
 * another tab sees that someone wrote. `setTitle` sets the words, `setUnread` the count.
 */

let words = document.title;
let unread = 0;

function apply() {
  const title = unread > 0 ? `(${unread}) ${words}` : words;
  if (document.title !== title) document.title = title;
}

export function setTitle(text) {
  words = text;
  apply();
}

export function setUnread(n) {
  unread = n;
  apply();
}
