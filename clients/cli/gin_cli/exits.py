"""gin's exit statuses (also in ``gin --help`` and docs/cli.md):

====  ===============================================================================
0     done: the command succeeded, or the game was played to its end
2     bad command line (unknown option, malformed ``--option``), or a command that needs a player login
      without one (``gin login NAME``) or another login on that server (``gin logout`` first); no
      password given, or the two typed differ; ``resign`` and ``abort`` of the game played last without
      a terminal to confirm on and without ``--yes``
3     the service cannot be reached
4     the service refused the request (the problem's code and detail are printed): a wrong password,
      too many failed sign-ins (``try again in N s``), a session ended elsewhere, a game not in the
      archive (``gin replay``, ``gin review``)…; or the service's review of the match failed
5     the player left an unfinished game (quit, end of input); ``gin resume`` continues it
6     nothing to resume (no saved game, or the saved game no longer exists); for ``resign``, ``abort``,
      ``rematch`` and ``replay``: no such saved game
7     ``gin challenge``: the challenge was not accepted — declined (the reason is printed), expired
      unanswered, or withdrawn from elsewhere
8     ``gin review`` (and ``gin replay --review``): the review was still being computed after ``--wait``
      seconds; it goes on in the service
130   interrupted with Ctrl-C; an unfinished game can be resumed (``gin review``: waiting stops, the
      review goes on in the service)
====  ===============================================================================
"""

EXIT_OK = 0
EXIT_USAGE = 2
EXIT_UNREACHABLE = 3
EXIT_REFUSED = 4
EXIT_LEFT = 5
EXIT_NOTHING_TO_RESUME = 6
EXIT_NOT_ACCEPTED = 7
EXIT_STILL_PENDING = 8
EXIT_INTERRUPTED = 130
