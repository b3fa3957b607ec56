"""A PettingZoo AEC environment for any Varia game (needs pettingzoo, gymnasium and numpy).

Agents are the game's players in turn order, named `player_0` (who moves first), `player_1`, ...
(`VariaEnv.player_names` has the game's own names). An action is an index into the game's fixed move
encoding (`Game.num_actions`, see docs/python.md); each observation carries the planes of the
position and the mask of the legal actions. In games of several actions a turn (Hans38) the
same agent acts until its turn ends. A finished game gives +1 to the winner and -1 to every
other player, 0 to all for a draw; a game reaching `max_plies` is truncated.
"""

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from varia._varia import Game

__all__ = ["VariaEnv", "env", "raw_env"]


class VariaEnv(AECEnv):
    """The environment of one game: `game` is a `Game`, a rule file's path or a bundled name."""

    metadata = {"render_modes": ["ansi"], "name": "varia_v0", "is_parallelizable": False}

    def __init__(self, game="chess", variant=None, max_plies=1000, render_mode=None):
        super().__init__()
        self.game = game if isinstance(game, Game) else Game(game, variant)
        self.max_plies = max_plies
        self.render_mode = render_mode
        self.possible_agents = ["player_%d" % i for i in range(self.game.num_players)]
        self.player_names = dict(zip(self.possible_agents, self.game.players))
        self.metadata = dict(self.metadata, name="varia_" + self.game.title.lower().replace(" ", "_"))
        n = self.game.num_actions
        shape = self.game.observation_shape
        self._obs_space = spaces.Dict(
            {
                "observation": spaces.Box(low=0.0, high=np.inf, shape=shape, dtype=np.float32),
                "action_mask": spaces.Box(low=0, high=1, shape=(n,), dtype=np.int8),
            }
        )
        self._act_space = spaces.Discrete(n)
        self.position = None

    def observation_space(self, agent):
        return self._obs_space

    def action_space(self, agent):
        return self._act_space

    def observe(self, agent):
        planes = np.frombuffer(self.position.observation(), dtype=np.float32).reshape(self.game.observation_shape)
        if agent == self.agent_selection and not self.terminations[agent] and not self.truncations[agent]:
            mask = np.frombuffer(self.position.action_mask(), dtype=np.int8).copy()
        else:
            mask = np.zeros(self.game.num_actions, dtype=np.int8)
        return {"observation": planes.copy(), "action_mask": mask}

    def reset(self, seed=None, options=None):
        fen = (options or {}).get("fen")
        self.position = self.game.position(fen)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {a: {} for a in self.agents}
        self.agent_selection = self.agents[self.position.turn]
        self._check_end()

    def _check_end(self):
        over = self.position.result()
        if over is not None:
            winner, reason = over
            for i, a in enumerate(self.agents):
                self.terminations[a] = True
                self.rewards[a] = 0 if winner is None else (1 if i == winner else -1)
                self.infos[a] = {"result": reason}
        elif self.position.ply >= self.max_plies:
            for a in self.agents:
                self.truncations[a] = True

    def step(self, action):
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0
        self.rewards = dict.fromkeys(self.agents, 0)
        self.position.push_action(int(action))
        self._check_end()
        self.agent_selection = self.agents[self.position.turn]
        self._accumulate_rewards()

    def render(self):
        if self.render_mode == "ansi":
            return self.position.fen
        return None

    def close(self):
        pass


def raw_env(game="chess", variant=None, max_plies=1000, render_mode=None):
    """The environment without PettingZoo's wrappers."""
    return VariaEnv(game, variant, max_plies, render_mode)


def env(game="chess", variant=None, max_plies=1000, render_mode=None):
    """The environment in PettingZoo's usual wrappers: an illegal action ends the game with -1
    for its player, and the AEC call order is enforced."""
    e = raw_env(game, variant, max_plies, render_mode)
    e = wrappers.TerminateIllegalWrapper(e, illegal_reward=-1)
    e = wrappers.AssertOutOfBoundsWrapper(e)
    return wrappers.OrderEnforcingWrapper(e)
