// A third party's client code, compiled with `tsc --strict` against the types openapi-typescript writes
// from openapi/openapi.json (tests/test_typescript_client.py): it reads every member of a view, of each
// game event and of each account event, without a cast. A member the document leaves untyped, optional
// where it is always there, or free-form would fail to compile here.
import type { components } from "./api";

type Schemas = components["schemas"];
type View = Schemas["View"];
type EventLine = Schemas["EventLine"];
type AccountLine = Schemas["AccountStreamLine"];
type Player = Schemas["Player"];
type Move = Schemas["Move"];

const cards = (list: string[]): string => list.join(" ");
const melds = (list: string[][]): string => list.map(cards).join(" | ");
const seatName = (seat: number | null): string => (seat === null ? "nobody" : `seat ${seat}`);

function player(p: Player): string {
  const facts = `${p.card_count ?? "?"} cards, known ${cards(p.known_cards ?? [])} ${cards(p.cards ?? [])}`;
  switch (p.type) {
    case "human":
      return `${p.seat}: ${p.name ?? "(invited)"} ${p.player ?? "anonymous"} joined=${p.joined} ${facts}`;
    case "bot":
      return `${p.seat}: ${p.name} bot ${p.bot} ${p.player ?? "house"} ${facts}`;
  }
}

function move(m: Move): string {
  switch (m.type) {
    case "draw":
      return `${m.seat} drew from ${m.source} ${m.card ?? ""}`;
    case "pass":
      return `${m.seat} passed`;
    case "discard":
      return `${m.seat} discarded ${m.card}`;
    case "knock":
      return `${m.seat} knocked ${m.discard ?? ""} ${melds(m.melds ?? [])}`;
    case "layoff":
      return `${m.seat} laid off ${m.best ?? false} ${melds(m.melds ?? [])} ${(m.layoffs ?? []).length}`;
  }
}

function arrangement(a: Schemas["Arrangement"]): string {
  return `${melds(a.melds)} / ${cards(a.deadwood_cards)} = ${a.deadwood}`;
}

function result(r: Schemas["HandResult"]): string {
  const o = r.outcome;
  const outcome = `${o.end} ${seatName(o.winner)} ${o.points} ${seatName(o.knocker)} ${o.knocker_deadwood}`;
  const more = `${o.defender_deadwood} ${o.difference} ${o.bonus} x${o.multiplier}`;
  const knocker = r.knocker ? `${r.knocker.seat} ${r.knocker.discard ?? "-"} ${melds(r.knocker.melds)}` : "";
  const knockerRest = r.knocker ? `${cards(r.knocker.deadwood_cards)} ${r.knocker.deadwood}` : "";
  const defender = r.defender
    ? `${r.defender.seat} ${melds(r.defender.melds)} ${r.defender.layoffs.map((l) => `${l.card}>${l.meld}`)}` +
      ` ${cards(r.defender.deadwood_cards)} ${r.defender.deadwood}`
    : "";
  const both = (r.arrangements ?? []).map(arrangement).join(" ; ");
  return `${outcome} ${more} ${r.hands.map(cards)} ${knocker} ${knockerRest} ${defender} ${both}`;
}

function score(g: Schemas["GameScore"]): string {
  const b = g.bonuses;
  return (
    `game ${g.number}: ${g.points} won ${g.hands_won} over=${g.over} ${seatName(g.reached_target)} ` +
    `${seatName(g.forfeited_by)} ${b.game} ${b.box} ${b.shutout} ${b.shutout_hand_points} ` +
    `${g.grand_totals} ${seatName(g.winner)}`
  );
}

export function describeView(view: View): string {
  const lines: string[] = [
    `${view.game_id} v${view.version} ${seatName(view.seat)} ${view.phase} turn ${seatName(view.turn)}`,
    `dealer ${view.dealer} hand ${view.hand_number} knock ${view.knock_limit} spades ${view.spades_double}`,
    `rules: target ${view.rules.target} knock ${view.rules.knock_limit}`,
    `pile ${cards(view.discard_pile)} stock ${view.stock_size}`,
    view.players.map(player).join("\n"),
    view.legal_actions.map((a) => `${a.type}/${a.kind ?? ""}`).join(","),
    (view.history ?? []).map(move).join("\n"),
    view.scores.games.map(score).join("\n"),
    `${view.scores.games_won} ${view.scores.match_over} ${seatName(view.scores.match_winner)}`,
    view.hands
      .map((h) => `${h.number} ${h.end} ${seatName(h.winner)} ${h.points} ${seatName(h.knocker)} ${h.deadwood} ${h.games}`)
      .join("\n"),
    (view.stats ?? [])
      .map(
        (s) =>
          `${s.hands_played} ${s.hands_won} ${s.gins} ${s.big_gins} ${s.knocks} ${s.undercuts_given} ` +
          `${s.undercuts_suffered} ${s.walls} ${s.points} ${s.avg_deadwood.toFixed(2)} ${s.points_per_hand}`,
      )
      .join("\n"),
    `${view.end_reason ?? "-"} ${seatName(view.forfeited_by)} ${view.commitment ?? "-"} ${view.cursor}`,
    `${view.waiting_for_opponent} ${view.your_move} ${view.can_undo} ${view.can_hint} ${view.rated}`,
    `${view.private} ${view.archived} ${view.claim_after?.toFixed(1) ?? "-"}`,
  ];
  if (view.hand) {
    const h = view.hand;
    const options = (h.discards ?? []).map((d) => `${d.card}:${d.deadwood}`);
    lines.push(`${cards(h.cards)} ${melds(h.melds ?? [])} ${cards(h.deadwood_cards ?? [])} ${h.deadwood} ${options}`);
  }
  if (view.opponent) {
    const o = view.opponent;
    lines.push(`${o.seat} ${o.card_count} ${cards(o.known_cards)} ${cards(o.cards ?? [])}`);
  }
  if (view.knock) {
    const k = view.knock;
    lines.push(`${k.knocker} ${melds(k.melds)} ${cards(k.deadwood_cards)} ${k.deadwood} ${k.gin} ${k.big_gin} ${k.discard}`);
  }
  if (view.result) lines.push(result(view.result));
  if (view.clock) {
    const c = view.clock;
    lines.push(`${c.per_move} ${c.bank} ${c.increment} ${c.remaining?.join("/")} ${c.running} ${c.move_remaining}`);
  }
  if (view.rematch) lines.push(`${view.rematch.offered_by} ${view.rematch.game_id ?? "-"}`);
  if (view.tournament) {
    const t = view.tournament;
    lines.push(`${t.id} ${t.berserk.join("/")} ${t.may_berserk}`);
  }
  return lines.join("\n");
}

export function describeEvent(line: EventLine): string {
  switch (line.type) {
    case "deal":
      return (
        `${line.id} hand ${line.hand} game ${line.game} dealer ${line.dealer} ${line.upcard} ${line.stock_size} ` +
        `${line.knock_limit} ${line.spades_double} ${line.commitment ?? "-"} ${cards(line.cards ?? [])} ${line.seat}`
      );
    case "draw":
      return `${line.id} ${line.seat} ${line.source} ${line.stock_size ?? "-"} ${line.card ?? "?"}`;
    case "pass":
      return `${line.id} ${line.seat} passed`;
    case "discard":
      return `${line.id} ${line.seat} ${line.card}`;
    case "knock":
      return (
        `${line.id} ${line.seat} ${melds(line.melds)} ${cards(line.deadwood_cards)} ${line.deadwood} ` +
        `${line.gin} ${line.big_gin} ${line.discard ?? "-"}`
      );
    case "layoff":
      return (
        `${line.id} ${line.seat} ${melds(line.melds)} ${line.layoffs.map((l) => l.card + l.meld)} ` +
        `${cards(line.deadwood_cards)} ${line.deadwood}`
      );
    case "hand_over":
      return `${line.id} ${seatName(line.seat)} ${result(line)}`;
    case "game_over":
      return `${line.id} ${seatName(line.seat)} ${line.reason ?? "played out"} ${score(line)}`;
    case "match_over":
      return (
        `${line.id} ${seatName(line.seat)} ${line.games_won} ${line.reason ?? "played out"} ` +
        `${line.forfeited_by ?? "-"} ${line.aborted_by ?? "-"}`
      );
    case "joined":
      return `${line.id} ${line.seat} ${line.name}`;
    case "undo":
      return `${line.id} ${line.seat} ${line.actions_undone}`;
    case "rematch_offered":
      return `${line.id} ${line.seat}`;
    case "rematch":
      return `${line.id} ${line.seat} ${line.game_id}`;
    case "berserk":
      return `${line.id} ${line.seat} berserked`;
    case "chatLine":
      return (
        `#${line.n} [${line.room}] ${line.author} ${line.seat ?? "-"} ${line.bot} ${line.preset ?? "-"} ` +
        `${line.text} ${line.at}`
      );
    case "opponentGone":
      return `gone ${line.gone} claim in ${line.claim_in}`;
    case "keepalive":
      return "";
    case "error":
      return `${line.code} ${line.detail} retry in ${line.retry_after}`;
  }
}

function challenge(c: Schemas["Challenge"]): string {
  const clock = c.clock ? `${c.clock.preset ?? "custom"} ${c.clock.per_move} ${c.clock.bank} ${c.clock.increment}` : "";
  return (
    `${c.id} ${c.challenger.name} ${c.challenger.player ?? "anonymous"} → ${c.opponent.name} ${c.opponent.player} ` +
    `${c.opponent.bot} ${c.rules.preset ?? "standard"} ${clock} ${c.rated} ${c.created} ${c.expires} ` +
    `${c.game_id ?? "-"} ${c.status} ${c.decline_reason ?? "-"} ${c.url}`
  );
}

function startedGame(g: Schemas["StartedGame"]): string {
  const o = g.opponent;
  return (
    `${g.game_id} ${g.seat} ${g.players.map(player)} ${o.name ?? "-"} ${o.player ?? "-"} ${o.bot ?? "-"} ` +
    `${g.rated} ${g.rules.target} ${g.game} ${g.tournament ?? "-"}`
  );
}

export function describeAccountLine(line: AccountLine): string {
  switch (line.type) {
    case "gameStart":
      return `${line.id} start ${startedGame(line.game)}`;
    case "gameFinish":
      return (
        `${line.id} finish ${startedGame(line.game)} ${seatName(line.game.winner)} ${line.game.result} ` +
        `${line.game.end_reason}`
      );
    case "challenge":
    case "challengeCanceled":
    case "challengeDeclined":
      return `${line.id} ${line.type} ${challenge(line.challenge)}`;
    case "followedGameStart":
      return `${line.id} ${line.player} plays ${startedGame(line.game)}`;
    case "keepalive":
      return "";
    case "error":
      return `${line.code} ${line.detail} retry in ${line.retry_after}`;
  }
}
