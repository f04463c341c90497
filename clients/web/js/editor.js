// The arrangement a player chooses when knocking, and the melds and lay-offs a defender chooses.
// Nothing here knows which melds are valid: the editors only group the cards the player picks, start from
// what the service proposes (POST /v1/analyze for the knocker, the explicit layoff in legal_actions for
// the defender), and build the body the service checks (it refuses an invalid meld with its reason).

function clone(melds) {
  return (melds || []).map((m) => [...m]);
}

class Grouping {
  constructor(cards) {
    this.cards = [...cards];
    this.melds = [];
    this.selected = new Set();
    this.edited = false;
  }

  inMeld(card) {
    return this.melds.findIndex((m) => m.includes(card));
  }

  toggle(card) {
    if (!this.cards.includes(card)) return;
    const meld = this.inMeld(card);
    if (meld >= 0) {
      // Picking a card of a meld takes the meld apart: its cards go back to the loose ones, selected.
      this.breakMeld(meld);
      this.selected.add(card);
      return;
    }
    if (this.selected.has(card)) this.selected.delete(card);
    else this.selected.add(card);
  }

  makeMeld() {
    const cards = this.cards.filter((c) => this.selected.has(c));
    if (cards.length === 0) return false;
    this.melds.push(cards);
    this.selected.clear();
    this.edited = true;
    return true;
  }

  breakMeld(index) {
    if (index < 0 || index >= this.melds.length) return;
    this.melds.splice(index, 1);
    this.edited = true;
  }

  /** Cards in no meld (and, for a defender, not laid off). */
  loose() {
    return this.cards.filter((c) => this.inMeld(c) < 0);
  }
}

/** The knocker's choice: the face-down discard and the melds of the other ten cards. */
export class KnockEditor extends Grouping {
  constructor(view, { gin = false } = {}) {
    const hand = view.hand || {};
    super(hand.cards || []);
    this.allCards = [...(hand.cards || [])];
    const after = new Map((hand.discards || []).map((d) => [d.card, d.deadwood]));
    // The discards the service offers for a knock, the one leaving the least deadwood first.
    this.choices = (view.legal_actions || [])
      .filter((a) => a.type === "knock" && a.discard)
      .map((a) => ({ card: a.discard, deadwood: after.has(a.discard) ? after.get(a.discard) : null }))
      .sort((a, b) => (a.deadwood ?? 999) - (b.deadwood ?? 999));
    if (gin) this.choices = this.choices.filter((c) => c.deadwood === 0);
    this.discard = this.choices.length ? this.choices[0].card : null;
    this.best = null; // the service's arrangement of the ten cards kept
    this.bestDeadwood = null;
    this.analyzing = false;
  }

  async setDiscard(card, api, knockLimit) {
    this.discard = card;
    this.cards = this.allCards.filter((c) => c !== card);
    this.selected.clear();
    this.melds = [];
    this.best = null;
    this.analyzing = true;
    try {
      const analysis = await api.analyze(this.cards, knockLimit);
      this.best = clone(analysis.melds);
      this.bestDeadwood = analysis.deadwood;
    } finally {
      this.analyzing = false;
    }
    this.resetBest();
  }

  resetBest() {
    this.melds = clone(this.best);
    this.selected.clear();
    this.edited = false;
  }

  body() {
    const body = { type: "knock", discard: this.discard };
    // Unchanged: the engine lays down its own minimum-deadwood arrangement (the one the analysis showed).
    if (this.edited) body.melds = clone(this.melds);
    return body;
  }
}

/** The defender's choice: their own melds, and which loose cards go onto which of the knocker's melds. */
export class LayoffEditor extends Grouping {
  constructor(view) {
    super((view.hand || {}).cards || []);
    this.targets = clone((view.knock || {}).melds);
    this.noLayoffs = Boolean((view.knock || {}).gin || (view.knock || {}).big_gin);
    const proposal = (view.legal_actions || []).find((a) => a.type === "layoff" && Array.isArray(a.melds));
    this.best = proposal ? { melds: clone(proposal.melds), layoffs: (proposal.layoffs || []).map((l) => ({ ...l })) } : null;
    this.layoffs = [];
    this.resetBest();
  }

  inLayoff(card) {
    return this.layoffs.findIndex((l) => l.card === card);
  }

  toggle(card) {
    const laid = this.inLayoff(card);
    if (laid >= 0) {
      this.takeBack(card);
      return;
    }
    super.toggle(card);
  }

  makeMeld() {
    for (const card of this.selected) {
      if (this.inLayoff(card) >= 0) this.selected.delete(card);
    }
    return super.makeMeld();
  }

  /** Lay the selected loose card(s) off onto the knocker's meld `index`, in the order picked. */
  layOff(index) {
    if (index < 0 || index >= this.targets.length) return false;
    const cards = [...this.selected].filter((c) => this.inMeld(c) < 0 && this.inLayoff(c) < 0);
    if (!cards.length) return false;
    for (const card of cards) this.layoffs.push({ card, meld: index });
    this.selected.clear();
    this.edited = true;
    return true;
  }

  takeBack(card) {
    const i = this.inLayoff(card);
    if (i >= 0) {
      this.layoffs.splice(i, 1);
      this.edited = true;
    }
  }

  loose() {
    return super.loose().filter((c) => this.inLayoff(c) < 0);
  }

  laidOn(index) {
    return this.layoffs.filter((l) => l.meld === index).map((l) => l.card);
  }

  resetBest() {
    this.melds = clone(this.best ? this.best.melds : []);
    this.layoffs = this.best ? this.best.layoffs.map((l) => ({ ...l })) : [];
    this.selected.clear();
    this.edited = false;
  }

  body() {
    return { type: "layoff", melds: clone(this.melds), layoffs: this.layoffs.map((l) => ({ card: l.card, meld: l.meld })) };
  }
}
