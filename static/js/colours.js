/**
 * The seats' colours: a seat's `colour` in the room status and the views is a name from its
 * game's catalogue ("blue"); this is how every page paints it (banner, log, lobby, scores).
 */

const PLAYER = {
  blue: "#2f6fc4",
  red: "#c8342c",
  yellow: "#e3b21a",
  green: "#2f9a4c",
  black: "#2a2a2a",
  white: "#f2efe6",
  purple: "#7b3fa8",
  orange: "#e07b1f",
  pink: "#e26aa0",
  brown: "#7a4a25",
};

/** The CSS colour of a colour name (an unknown name is used as it is; none is grey). */
export function playerColour(name) {
  return PLAYER[name] || name || "#888";
}
