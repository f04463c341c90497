"""A Gin Rummy bot in 20 lines. Play it with `gin-bot run this_file.py:choose --bot simple`."""


def makes_meld(card: str, cards: list[str]) -> bool:
    """Whether `card` and two of `cards` make a set (same rank) or a run (same suit, in a row)."""
    rank, suit = "A23456789TJQK".index, card[1]
    near = {rank(c[0]) - rank(card[0]) for c in cards if c[1] == suit}
    return sum(c[0] == card[0] for c in cards) >= 2 or any(p <= near for p in ({-2, -1}, {-1, 1}, {1, 2}))


def choose(view: dict) -> dict:
    legal, hand = view["legal_actions"], view["hand"]
    left = {d["card"]: d["deadwood"] for d in hand.get("discards", [])}  # deadwood after each discard
    for kind in ("knock", "layoff", "deal", "discard"):  # knock (or gin) the moment it can
        if moves := [a for a in legal if a["type"] == kind]:  # the least deadwood left
            return min(moves, key=lambda a: left.get(a.get("discard") or a.get("card"), 0))
    draws = {a.get("source", "pass"): a for a in legal if a["type"] in ("draw", "pass")}
    if "discard" in draws and makes_meld(view["discard_pile"][-1], hand["cards"]):
        return draws["discard"]  # the face-up card only when it makes a meld
    return draws.get("stock") or draws["pass"]
