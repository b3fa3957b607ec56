"""The PettingZoo environment passes PettingZoo's own API test for chess, Hans38 (several actions a turn) and games of four players, and plays whole games with rewards from the result."""

import numpy as np
import pytest

pytest.importorskip("pettingzoo")
from pettingzoo.test import api_test  # noqa: E402

import varia  # noqa: E402
from conftest import SHARED  # noqa: E402
from varia.env import env, raw_env  # noqa: E402

# Four players on a 5x5 board, each with a rook and a wazir-stepping man; a player left without
# a piece loses.
FOUR = """variant "Four Corners"
board { grid 5 x 5 }
player north
player east
player south
player west
piece Man M { step orthogonal }
piece Rook R { slide orthogonal }
setup {
  north: M a1, R b1
  east: M e1, R e2
  south: M e5, R d5
  west: M a5, R a4
}
end {
  goal north east south west loss: pieces-remaining 0
}
"""


def four_players():
    return varia.Game.from_text(FOUR, name="four.var")


@pytest.mark.parametrize("game", ["chess", "hans38", "hans38-postal", "crazyhouse"])
def test_api_test_passes_for_bundled_games(game):
    api_test(env(game, max_plies=200), num_cycles=300)


def test_api_test_passes_for_four_players():
    api_test(env(four_players(), max_plies=200), num_cycles=300)


@pytest.mark.skipif(not (SHARED / "zrf-corpus").is_dir(), reason="../shared/zrf-corpus is not beside the repository")
def test_api_test_passes_for_chaturaji_from_zillions():
    api_test(env(str(SHARED / "zrf-corpus" / "chess" / "chaturaji.zrf"), max_plies=200), num_cycles=300)


def play_random(e, seed):
    rng = np.random.default_rng(seed)
    e.reset(seed=seed)
    acted = []
    e.final = {}
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, info = e.last()
        if terminated or truncated:
            e.final[agent] = reward
            e.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        acted.append(agent)
        e.step(int(rng.choice(legal)))
    return acted


def test_a_turn_of_several_actions_keeps_the_agent():
    # Hans38 under the Postal Rule: a piece move, then a square move or placement in the same turn.
    e = raw_env("hans38-postal")
    e.reset()
    moves = "@@f3 @@f6 Ng1-f3 @@e3 Ng8-f6 @g8-e6 e2-e3 end".split()
    agents = []
    for text in moves:
        agents.append(e.agent_selection)
        action = next(a for a, m in e.position.legal_actions() if m == text or m == e.position.parse_move(text))
        e.step(action)
    assert agents == ["player_0", "player_1", "player_0", "player_0", "player_1", "player_1", "player_0", "player_0"]
    assert e.agent_selection == "player_1"
    assert not any(e.terminations.values())


def test_every_legal_move_has_its_own_action():
    for name in ["chess", "hans38", "shogi", "seirawan", "janggi"]:
        game = varia.Game(name)
        pos = game.start()
        for _ in range(6):
            table = pos.legal_actions()
            actions = [a for a, _ in table]
            assert len(set(actions)) == len(actions) == len(pos.legal_moves())
            assert all(0 <= a < game.num_actions for a in actions)
            mask = np.frombuffer(pos.action_mask(), dtype=np.int8)
            assert set(np.flatnonzero(mask)) == set(actions)
            pos.push_action(actions[len(actions) // 2])


def test_a_finished_game_rewards_the_winner():
    e = raw_env("chess")
    e.reset(options={"fen": "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1"})
    mate = next(a for a, m in e.position.legal_actions() if m == "a1a8")
    e.step(mate)
    assert e.terminations == {"player_0": True, "player_1": True}
    assert e.rewards == {"player_0": 1, "player_1": -1}
    four = raw_env(four_players(), max_plies=400)
    play_random(four, 3)
    assert sorted(four.final.values()) in ([-1, -1, -1, 1], [0, 0, 0, 0])


def test_observations_count_the_pieces():
    e = raw_env("chess")
    e.reset()
    obs = e.observe("player_0")["observation"]
    assert obs.shape == (65, 15)
    assert obs[:64, :12].sum() == 32
    assert obs[64, 13] == 1  # white to move
