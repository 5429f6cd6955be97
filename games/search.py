"""One search for every game: information-set Monte Carlo tree search.

Written once against the engine contract; a game brings only an evaluation
(``evaluate(state) -> each seat's expected share``) and a rollout policy
(by default its greedy bot on the seat's view). :class:`SearchBot` is a
level's bot (:class:`games.contract.LevelBot`); games/levels.py names the levels.

**What it may look at.** The bot is handed the true state, as the platform
holds it, but reads it only through ``game.resample(state, seat, seed_k)``:
every iteration starts from a world drawn anew from what the deciding seat
sees (its view), never from the state itself, whose hidden parts (the others'
secrets, the draw order, the PRNG that rolls the next dice) it must not learn.
Two states the seat cannot tell apart therefore give the same decision under
the same seed and iteration budget (tests/test_search.py proves it on every
game, and that a bot peeking at the state fails the same test).

**The search** (single-observer ISMCTS, Cowling, Powley & Whitehouse 2012):
one tree of move sequences from the decision; iteration ``k`` draws world
``k`` and walks the tree in it, so a node's children are the moves legal in
some world, each chosen by UCB among those legal in this one (availability
counts). Then:

- *Several players*: each child keeps the reward of the seat that made its
  move, so every seat picks what is best for itself (max^n); rewards are
  per-seat shares in [0, 1].
- *Chance*: dice and card draws come from the world's PRNG and order, which
  ``resample`` redraws: playing a roll in world ``k`` draws one of its
  outcomes, and the tree averages over them.
- *Several seats acting, off-turn decisions*: the root acts for the deciding
  seat, whichever of ``to_act`` it is; deeper, the first seat of
  ``to_act`` acts (a seat whose decision is optional simply lets it go).
- *Compound turns* (``Step.ends_turn`` False): the same seat acts again, one
  level down.
- *Wide decisions*: progressive widening. A node offers UCB its best few
  moves, more as it is visited: the root ranks all of them, the rollout
  policy's first choices alternating with the best by a one-move look-ahead
  (``evaluate`` after each); a deeper node offers the policy's choice alone
  until it has been visited often enough to offer two, then is ranked too.
- *Long games*: a rollout plays the policy from the new leaf for a few turns
  (``Tuning.rollout_turns`` turn ends) and then asks ``evaluate``; a
  finished game is scored by its :class:`~games.contract.Outcome` instead
  (:func:`outcome_rewards`).
- *Noise*: each iteration's rewards are counted from what its world was worth
  before the decision (``evaluate`` on it), so that the luck of the draw,
  the same whichever move is tried in that world, does not blur the
  comparison; UCB scales its exploration by each move's observed spread of
  rewards (UCB-V), so that moves whose outcome barely varies take few tries.

**The decision**: the rollout policy's own choice (the game's greedy bot),
unless another root move's mean reward, less ``Tuning.doubt`` standard
errors, is higher: the search improves on the greedy move where it has
evidence, and leaves it alone where the evaluation cannot tell moves apart.

**Budget**: wall-clock seconds, less a small margin (no iteration starts that
could end past them, at the pace of the longest one yet; one ranking of a wide
decision takes at most ``Tuning.rank_share`` of them) and/or an iteration count (deterministic).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from games.contract import Bot, Budget, Game, Outcome, Seat
from games.rng import Rng, derive_seed

BUDGET_MARGIN = 0.03  # of a time budget, left for what follows the search

# A rollout policy: (game, a sampled world, the seat to act, its legal moves, a
# random stream) -> one of the moves. It may read the world whole: it is a
# sample, not the true state.
Policy = Callable[[Game[Any, Any], Any, Seat, Sequence[Any], Rng], Any]
# Each seat's expected share of the result in [0, 1], on a (sampled) world.
Evaluate = Callable[[Any], tuple[float, ...]]


# --------------------------------------------------------------------------- rewards

WIN, PLACE, MARGIN = 0.75, 0.15, 0.10  # a finished game's reward: weights summing to 1
MARGIN_SCALE = 10.0  # points of lead worth most of the margin part


def outcome_rewards(outcome: Outcome) -> tuple[float, ...]:
    """Each seat's reward for a finished game, in [0, 1]: mostly the win (shared
    among tied winners), then the place, then the lead over the best other seat."""
    n = len(outcome.ranks)
    winners = outcome.winners
    scores = outcome.scores
    out = []
    for seat in range(n):
        win = 1 / len(winners) if seat in winners else 0.0
        place = (n - outcome.ranks[seat]) / (n - 1) if n > 1 else 1.0
        best_other = max((s for i, s in enumerate(scores) if i != seat), default=scores[seat])
        margin = _sigmoid((scores[seat] - best_other) / MARGIN_SCALE)
        out.append(WIN * win + PLACE * place + MARGIN * margin)
    return tuple(out)


def win_shares(values: Sequence[float], spread: float) -> tuple[float, ...]:
    """Expected shares from projected final scores: a softmax whose ``spread``
    (points) says how much the rest of the game may still change them. With two
    seats, the logistic of the difference; the shares sum to 1."""
    top = max(values)
    weights = [math.exp((v - top) / spread) for v in values]
    total = sum(weights)
    return tuple(w / total for w in weights)


def _sigmoid(x: float) -> float:
    return 1 / (1 + math.exp(-x)) if x > -60 else 0.0


def greedy_policy(bot: Bot) -> Policy:
    """The game's greedy bot as a rollout policy (it sees the seat's view of the world)."""
    return _Greedy(bot)


@dataclass(frozen=True)
class _Greedy:
    bot: Bot

    def __call__(
        self, game: Game[Any, Any], world: Any, seat: Seat, legal: Sequence[Any], rng: Rng
    ) -> Any:
        return self.bot(game.view(world, seat), legal, rng)


# --------------------------------------------------------------------------- tuning


@dataclass(frozen=True)
class Tuning:
    """A level's search: its default budget and how it spends it."""

    seconds: float | None = 1.0  # default budget (a Budget given overrides both)
    iterations: int | None = None
    exploration: float = 1.5  # UCB's constant, times the rewards' standard deviation
    variance_floor: float = 0.003  # the least variance a move's rewards are given
    doubt: float = 1.0  # standard errors a move must beat the policy's choice by
    rank_share: float = 0.3  # of the time budget, the most one ranking of moves may take
    rollout_turns: int | None = 1  # turn ends a rollout plays before it evaluates
    # (None: one round, as many as there are seats)
    rollout_plies: int = 40  # and at most this many moves
    root_width: float = 1.5  # moves offered at the root: root_width * (visits+1) ** widen
    width: float = 0.25  # deeper: 1 + width * visits ** widen
    widen: float = 0.5
    policy_picks: int = 3  # the rollout policy's choices a ranking starts with
    baseline: bool = True  # count rewards from the world's value before the decision


@dataclass
class _Child:
    node: _Node
    visits: int = 0
    total: float = 0.0  # summed rewards of the seat that made the move
    squares: float = 0.0  # and their squares (for the variance)
    seen: int = 0  # iterations in which it was offered (availability)


@dataclass
class _Node:
    visits: int = 0
    children: dict[tuple[Seat, Any], _Child] = field(default_factory=dict)
    ranked: dict[Seat, list[Any]] = field(default_factory=dict)  # best first, per seat
    first: dict[Seat, Any] = field(default_factory=dict)  # the policy's choice, per seat


@dataclass(frozen=True)
class SearchBot:
    """A searching level's bot (:class:`games.contract.LevelBot`); picklable as long as
    its policy and evaluation are module-level functions or such objects."""

    evaluate: Evaluate
    policy: Policy
    tuning: Tuning = Tuning()

    def __call__(
        self, game: Game[Any, Any], state: Any, seat: Seat, seed: int, budget: Budget | None = None
    ) -> Any:
        return self.search(game, state, seat, seed, budget).move

    def search(
        self, game: Game[Any, Any], state: Any, seat: Seat, seed: int, budget: Budget | None = None
    ) -> Search:
        """The finished search of the decision: its move, and what led to it."""
        search = Search(game, self.evaluate, self.policy, self.tuning, seat, seed)
        search.decide(state, budget)
        return search


# --------------------------------------------------------------------------- the search


class Search:
    """One decision's search (the tree lives as long as the decision)."""

    def __init__(
        self,
        game: Game[Any, Any],
        evaluate: Evaluate,
        policy: Policy,
        tuning: Tuning,
        seat: Seat,
        seed: int,
    ) -> None:
        self.game = game
        self.evaluate = evaluate
        self.policy = policy
        self.t = tuning
        self.seat = seat
        self.seed = seed
        self.root = _Node()
        self.iterations = 0
        self.started = self.deadline = 0.0
        self.move: Any = None
        self.players = 0

    def decide(self, state: Any, budget: Budget | None = None) -> Any:
        """The move for ``self.seat``; ``state`` is read through ``resample`` only."""
        game, seat = self.game, self.seat
        if budget is None:
            budget = Budget(self.t.seconds, self.t.iterations)
        seconds, cap = budget.seconds, budget.iterations
        if seconds is None and cap is None:
            raise ValueError("a search needs seconds or iterations")
        self.started = time.perf_counter()
        # Aim a little short of the budget: choosing the move, and handing it back
        # from a worker, take a few milliseconds more.
        self.deadline = deadline = (
            math.inf if seconds is None else self.started + seconds * (1 - BUDGET_MARGIN)
        )
        world = game.resample(state, seat, derive_seed(self.seed, 0))
        legal = game.legal_moves(world, seat)
        if not legal:
            raise ValueError(f"seat {seat} has no move to make")
        if len(legal) == 1:
            self.move = legal[0]
            return self.move
        self.players = len(self.evaluate(world))
        k = 0
        now = self.started
        longest = 0.0  # the longest iteration since the first (which ranks the root)
        while True:
            self.iterate(world, Rng.from_seed(derive_seed(self.seed, k, 1)))
            k += 1
            # Stop when another iteration as long as the longest yet could overrun
            # the budget (they vary: a rollout ends early or late).
            before, now = now, time.perf_counter()
            last = now - before
            longest = max(longest, last) if k > 1 else 0.0
            if (cap is not None and k >= cap) or now + max(last, longest) > deadline:
                break
            world = game.resample(state, seat, derive_seed(self.seed, k))
        self.iterations = k
        self.move = self.choice(legal)
        return self.move

    def summary(self) -> tuple[tuple[Seat, Any, int, float], ...]:
        """The root's statistics: (seat, move, visits, summed reward) per move tried."""
        return tuple(
            (seat, move, child.visits, child.total)
            for (seat, move), child in self.root.children.items()
        )

    def choice(self, legal: list[Any]) -> Any:
        """The root move to play: the rollout policy's own choice unless another
        move's mean reward, less one standard error, beats it (policy improvement
        only on evidence, so that moves the evaluation cannot tell apart leave the
        policy's judgement alone)."""
        ranked = self.root.ranked.get(self.seat, legal)
        default = ranked[0]
        best, top = default, -math.inf
        for (seat, move), child in self.root.children.items():
            if seat != self.seat:
                continue
            n = child.visits
            mean = child.total / n
            if move != default:
                spread = max(child.squares / n - mean * mean, self.t.variance_floor)
                mean -= self.t.doubt * math.sqrt(spread / n)
            if mean > top:
                best, top = move, mean
        return best

    # ------------------------------------------------------------------ one iteration

    def iterate(self, world: Any, rng: Rng) -> None:
        game = self.game
        node = self.root
        path: list[tuple[_Child, Seat]] = []
        rewards: tuple[float, ...] | None = None
        # What this world is worth before anyone moves: rewards are counted from
        # it, so that what the world's hidden draws give or take (the same
        # whichever move is tried in it) does not blur the moves' comparison.
        base = self.rewards(world) if self.t.baseline else None
        while True:
            outcome = game.outcome(world)
            if outcome is not None:
                rewards = outcome_rewards(outcome)
                break
            acting = self.seat if node is self.root else game.to_act(world)[0]
            legal = game.legal_moves(world, acting)
            offered = self.offered(node, world, acting, legal, rng)
            children = node.children
            fresh = next((m for m in offered if (acting, m) not in children), None)
            if fresh is not None:  # expand it, then roll out
                for move in offered:
                    if (acting, move) in children:
                        children[(acting, move)].seen += 1
                child = children[(acting, fresh)] = _Child(_Node(), seen=1)
                world = game.simulate(world, acting, fresh).state
                path.append((child, acting))
                break
            move, child = self.select(node, acting, offered)
            world = game.simulate(world, acting, move).state
            path.append((child, acting))
            node = child.node
        if rewards is None:
            rewards = self.rollout(world, rng)
        if base is not None:
            rewards = tuple(r - b + 0.5 for r, b in zip(rewards, base, strict=True))
        self.root.visits += 1
        for child, acting in path:
            child.visits += 1
            child.node.visits += 1
            child.total += rewards[acting]
            child.squares += rewards[acting] ** 2

    def select(self, node: _Node, acting: Seat, offered: list[Any]) -> tuple[Any, _Child]:
        """UCB among the offered moves, all already tried (availability counts),
        its exploration scaled by each move's observed spread of rewards (UCB-V):
        where a move's rewards barely vary, a few tries tell enough."""
        c, floor = self.t.exploration, self.t.variance_floor
        best: tuple[Any, _Child] | None = None
        top = -math.inf
        for move in offered:
            child = node.children[(acting, move)]
            child.seen += 1
            n = child.visits
            mean = child.total / n
            spread = max(child.squares / n - mean * mean, floor)
            value = mean + c * math.sqrt(spread * math.log(child.seen) / n)
            if value > top:
                best, top = (move, child), value
        assert best is not None
        return best

    def offered(
        self, node: _Node, world: Any, acting: Seat, legal: list[Any], rng: Rng
    ) -> list[Any]:
        """The moves UCB may choose from here (progressive widening), best first."""
        t = self.t
        if node is self.root:
            width = math.ceil(t.root_width * (node.visits + 1) ** t.widen)
        else:
            width = 1 + int(t.width * node.visits**t.widen)
            if len(legal) <= width:
                return legal
            if width == 1 and acting not in node.ranked:
                # The policy's choice, as first made here (while it stays legal).
                move = node.first.get(acting)
                if move is None or move not in legal:
                    move = node.first[acting] = self.policy(self.game, world, acting, legal, rng)
                return [move]
        ranked = node.ranked.get(acting)
        if ranked is None:
            ranked = node.ranked[acting] = self.rank(world, acting, legal, rng)
        allowed = set(legal)
        out = [m for m in ranked if m in allowed][:width]
        if len(out) < width:  # moves this world allows that the ranking never saw
            known = set(out)
            out += [m for m in legal if m not in known][: width - len(out)]
        return out

    def rank(self, world: Any, acting: Seat, legal: list[Any], rng: Rng) -> list[Any]:
        """Every legal move, best first for ``acting``: the rollout policy's first
        few choices (asked again without the moves it chose) alternate with the
        best moves by a one-move look-ahead and the evaluation."""
        game = self.game
        chosen: list[Any] = []
        rest = list(legal)
        for _ in range(min(self.t.policy_picks, len(legal) - 1)):
            move = rest[0] if len(rest) == 1 else self.policy(game, world, acting, rest, rng)
            if move not in rest:  # a policy may know one answer only (a fixed reply)
                break
            chosen.append(move)
            rest.remove(move)
        values = dict.fromkeys(legal, -math.inf)
        # A wide decision (hundreds of placements) is ranked within part of the
        # time budget: the moves it has no time to look at come last, as listed.
        stop = self.started + self.t.rank_share * (self.deadline - self.started)
        for i, move in enumerate(legal):
            if i % 16 == 15 and time.perf_counter() > stop:
                break
            after = game.simulate(world, acting, move).state
            values[move] = self.rewards(after)[acting]
        by_value = sorted(legal, key=lambda m: -values[m])
        out: dict[Any, None] = {}
        for pair in zip(chosen, by_value, strict=False):
            out.update(dict.fromkeys(pair))
        out.update(dict.fromkeys(by_value))
        return list(out)

    def rewards(self, world: Any) -> tuple[float, ...]:
        outcome = self.game.outcome(world)
        return self.evaluate(world) if outcome is None else outcome_rewards(outcome)

    def rollout(self, world: Any, rng: Rng) -> tuple[float, ...]:
        game, t = self.game, self.t
        turns = 0
        horizon = self.players if t.rollout_turns is None else t.rollout_turns
        for ply in range(t.rollout_plies):
            if turns >= horizon:
                break
            seats = game.to_act(world)
            if not seats:
                break
            acting = seats[0]
            legal = game.legal_moves(world, acting)
            if len(legal) == 1:
                move = legal[0]
            else:
                move = self.policy(game, world, acting, legal, Rng.from_seed(rng.state + ply))
            step = game.simulate(world, acting, move)
            world = step.state
            turns += step.ends_turn
        return self.rewards(world)
