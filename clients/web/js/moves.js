// A move in words, for the move lists of a game, the spectator's view and the replay: the move as the
// service records it (a history entry, an event, or an action of a finished hand's record), the players'
// names by seat, and the view or record that says how the hand ended (gin or a plain knock). The words are
// returned as parts, card codes ("7H") kept apart so that the page can draw them as cards. And the one
// look-up of a move among a view's legal_actions, for the seat's page and its table.

/** The first of the view's legal actions with these fields: findAction(legal, {type: "draw", source: "stock"}). */
export function findAction(legal, wanted) {
  return legal.find((a) => Object.entries(wanted).every(([k, v]) => a[k] === v));
}

/** A move as words and cards: ["Bob", " discarded ", "7H"]. `context`: {knock, result} of the view or
 * the hand's record, if any (they tell a gin from a knock). */
export function describeMove(item, names, context) {
  const who = names[item.seat] ?? "?";
  switch (item.type) {
    case "draw":
      if (item.source === "discard") return item.card ? [who, " took ", item.card, " from the pile"] : [who, " took the discard"];
      return item.card ? [who, " drew ", item.card, " from the stock"] : [who, " drew from the stock"];
    case "discard":
      return [who, " discarded ", item.card];
    case "pass":
      return [who, " passed"];
    case "knock": {
      if (item.big_gin || ("discard" in item && item.discard === null)) return [who, " went big gin"];
      const knock = context?.knock || {};
      const outcome = context?.result?.outcome || {};
      const gin = item.gin || (knock.knocker === item.seat && knock.gin) || (outcome.knocker === item.seat && outcome.end === "gin");
      const verb = gin ? " went gin" : " knocked";
      return item.discard ? [who, verb, ", discarding ", item.discard] : [who, verb];
    }
    case "layoff": {
      const layoffs = Array.isArray(item.layoffs) ? item.layoffs.map((l) => l.card).filter(Boolean) : null;
      if (layoffs && layoffs.length) return [who, " laid down and laid off ", ...layoffs.flatMap((c, i) => (i ? [" ", c] : [c]))];
      if (layoffs) return [who, " laid down (no lay-offs)"];
      return [who, item.best ? " laid down, laying off the best way" : " laid down"];
    }
    case "deal":
      return [who, " dealt"];
    default:
      return [who, ` ${item.type}`];
  }
}
