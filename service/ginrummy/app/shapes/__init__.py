"""What the service sends, typed once (docs/design.md, "The contract"): a ``TypedDict`` per form, by
context — :mod:`.playing` (views, events and their stream lines, hands, hints, reviews, the match export),
:mod:`.players` (players, profiles, ratings, a player's finished matches, bots, rules, health),
:mod:`.meeting` (challenges, seeks, the lobby), :mod:`.accounts` (sessions, API tokens, the account
stream) and :mod:`.moderation` (reports, the moderators' acts and log). Every context may use them (the
builders are typed with them); they import no context."""
