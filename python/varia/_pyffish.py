"""The pyffish-compatible layer: pyffish's functions, names and argument order over Varia's games.

`variant` is a bundled name (`chess`, `xiangqi`, Fairy-Stockfish's `3check`, ...) or a path to
a .var or .zrf file; `fen` a position string (Fairy-Stockfish's are read, `"startpos"` is the
start); moves are UCI texts as pyffish writes them. Position strings come back in Varia's form,
which for a few games differs from Fairy-Stockfish's (docs/python.md lists where).
"""

from functools import lru_cache

from varia._varia import Game, VariaError, bundled

FEN_OK = 1
FEN_INVALID = -10
VALUE_MATE = 32000
VALUE_DRAW = 0
NOTATION_DEFAULT = 0
NOTATION_SAN = 1
NOTATION_LAN = 2
NOTATION_SHOGI_HOSKING = 3
NOTATION_SHOGI_HODGES = 4
NOTATION_SHOGI_HODGES_NUMBER = 5
NOTATION_JANGGI = 6
NOTATION_XIANGQI_WXF = 7
NOTATION_THAI_SAN = 8
NOTATION_THAI_LAN = 9

#: pyffish's exception class: Varia raises `VariaError` (a ValueError, as pyffish raises for a bad move).
error = VariaError

#: Fairy-Stockfish's names of bundled games whose Varia name differs.
FSF_NAMES = {"3check": "three-check"}

_OPTIONS = {"UCI_Variant", "UCI_Chess960", "VariantPath", "Threads", "Hash"}


@lru_cache(maxsize=None)
def _game(variant):
    return Game(variant)


def _position(variant, fen, movelist, chess960=False):
    if chess960:
        raise VariaError("error: Varia has no Chess960 castling; pass chess960=False")
    return _game(variant).position(fen, list(movelist))


def version():
    """Varia's version as (major, minor, patch)."""
    from importlib.metadata import PackageNotFoundError
    from importlib.metadata import version as dist_version

    try:
        return tuple(int(x) for x in dist_version("varia").split(".")[:3])
    except (PackageNotFoundError, ValueError):
        return (0, 1, 0)


def info():
    """A line naming the engine."""
    return "Varia %d.%d.%d (a declarative chess-variant engine)" % version()


def variants():
    """The bundled games' names, with Fairy-Stockfish's names for those it calls otherwise."""
    names = [name for name, _, _ in bundled()]
    return names + [fsf for fsf, name in FSF_NAMES.items() if name in names]


def set_option(name, value):
    """Accepts pyffish's engine options (they change nothing here); others raise ValueError."""
    if name not in _OPTIONS:
        raise ValueError("No such option %s'" % name)


def load_variant_config(config):
    """Fairy-Stockfish's variants.ini is not read by Varia: write the game as a .var file and
    pass its path as `variant` (docs/language.md)."""
    raise VariaError(
        "error: Varia does not read Fairy-Stockfish's variants.ini; write the game as a .var file "
        "and pass its path as the variant (docs/language.md)"
    )


def start_fen(variant):
    """The start position's string."""
    return _game(variant).start_fen


def two_boards(variant):
    """Whether the game is played on two boards (never, in Varia)."""
    _game(variant)
    return False


def captures_to_hand(variant):
    """Whether captured pieces go to the capturer's hand (crazyhouse, shogi)."""
    return _game(variant).captures_to_hand


def get_san(variant, fen, move, chess960=False, notation=NOTATION_DEFAULT):
    """A UCI move in short algebraic notation."""
    return _position(variant, fen, [], chess960).san(move)


def get_san_moves(variant, fen, movelist, chess960=False, notation=NOTATION_DEFAULT):
    """A list of UCI moves played from `fen`, in short algebraic notation."""
    pos = _position(variant, fen, [], chess960)
    out = []
    for move in movelist:
        out.append(pos.san(move))
        pos.push(move)
    return out


def legal_moves(variant, fen, movelist, chess960=False):
    """The legal moves after `movelist`, as UCI texts."""
    return _position(variant, fen, movelist, chess960).uci_moves()


def get_fen(variant, fen, movelist, chess960=False, sfen=False, show_promoted=False, count_started=0):
    """The position string after `movelist`."""
    if sfen:
        raise VariaError("error: Varia writes no SFEN; pass sfen=False")
    return _position(variant, fen, movelist, chess960).fen


def gives_check(variant, fen, movelist, chess960=False):
    """Whether the player to move after `movelist` is in check."""
    return _position(variant, fen, movelist, chess960).is_check()


def is_capture(variant, fen, movelist, move, chess960=False):
    """Whether `move`, after `movelist`, captures."""
    return _position(variant, fen, movelist, chess960).is_capture(move)


def piece_to_partner(variant, fen, movelist, chess960=False):
    """The piece a bughouse partner gets (none: Varia has no two-board games)."""
    _position(variant, fen, movelist, chess960)
    return ""


def _value(pos):
    over = pos.result()
    if over is None or over[0] is None:
        return VALUE_DRAW
    return VALUE_MATE if over[0] == pos.turn else -VALUE_MATE


def game_result(variant, fen, movelist, chess960=False):
    """The result of a finished game for the player to move: -VALUE_MATE lost, VALUE_MATE won,
    VALUE_DRAW drawn (or not over)."""
    return _value(_position(variant, fen, movelist, chess960))


#: Ends that Fairy-Stockfish leaves a player to claim (`is_optional_game_end`); Varia's rules
#: declare them, so they show there and not as immediate ends.
_CLAIMED = ("repetition", "move rule", "perpetual check", "counting")


def is_immediate_game_end(variant, fen, movelist, chess960=False):
    """(True, value) when a rule of the game other than checkmate, stalemate or a draw that
    Fairy-Stockfish lets a player claim has ended it, else (False, 0)."""
    pos = _position(variant, fen, movelist, chess960)
    over = pos.result()
    if over is None or over[1] in ("checkmate", "stalemate") + _CLAIMED:
        return (False, VALUE_DRAW)
    return (True, _value(pos))


def is_optional_game_end(variant, fen, movelist, chess960=False, count_started=0):
    """(True, value) when the game has ended by repetition, the move rule or a counting rule,
    which Varia's rules declare where Fairy-Stockfish lets a player claim them."""
    pos = _position(variant, fen, movelist, chess960)
    over = pos.result()
    if over is None or over[1] not in _CLAIMED:
        return (False, VALUE_DRAW)
    return (True, _value(pos))


def has_insufficient_material(variant, fen, movelist, chess960=False):
    """(False, False): Varia judges material only through the game's own end rules."""
    _position(variant, fen, movelist, chess960)
    return (False, False)


def validate_fen(fen, variant, chess960=False):
    """FEN_OK when Varia reads the position string for the game, else FEN_INVALID."""
    try:
        _game(variant).position(fen)
    except VariaError:
        return FEN_INVALID
    return FEN_OK


def get_fog_fen(fen, variant, chess960=False):
    """Fog of war is not a Varia game: raises VariaError."""
    raise VariaError("error: Varia has no fog-of-war games")


def perft(variant, fen, movelist, depth):
    """Varia's addition: the number of leaves of the legal move tree to `depth` actions."""
    return _position(variant, fen, movelist).perft(depth)
