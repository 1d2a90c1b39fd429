/**
 * The component data of a game's edition (docs/games/ishtar/rules.md, "Editions"): the
 * catalogue's top level is the default edition's, `editions[name]` each one's board sides,
 * tiles, tokens, tree cards and skills (with the numbers their texts take). A view names its
 * game's edition; a view without one is of edition "1".
 */

const chosen = new WeakMap();

/** The catalogue as the game of `view` reads it: its edition's data over the shared data. */
export function editionCatalogue(catalogue, view) {
  if (!catalogue || !catalogue.editions) return catalogue;
  const name = view?.edition ?? "1";
  let byName = chosen.get(catalogue);
  if (!byName) chosen.set(catalogue, (byName = new Map()));
  if (!byName.has(name)) byName.set(name, { ...catalogue, ...(catalogue.editions[name] || {}) });
  return byName.get(name);
}
