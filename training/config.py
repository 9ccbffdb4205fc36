"""The configuration of PPO self-play (``training.ppo.train``), one dataclass: every field is a
``tw16 train --ppo.<field>`` option."""

from __future__ import annotations

from dataclasses import InitVar, dataclass, field

from agents.neural import NetConfig

CRITICS = ("shared", "oracle")
ADVANTAGES = ("gae", "oracle")


@dataclass
class TrainConfig:
    seed: int = 0
    rules: dict = field(default_factory=dict)  # rule options (RULES.md 5); episode is "hand"
    num_envs: int = 128
    rollout_steps: int = 64  # steps of every game per update (all seats' decisions)
    total_decisions: int = 1_000_000  # environment decisions (all seats) over the run
    time_limit_s: float | None = None  # stop (and save) after this much wall time; the LR anneals over it
    learning_rate: float = 3e-4
    anneal_lr: bool = True
    gamma: float = 1.0  # one hand is one episode; chips arrive at its end
    gae_lambda: float = 0.95
    update_epochs: int = 3
    minibatch_size: int = 1024
    clip_coef: float = 0.2
    ent_coef: float = 0.01
    vf_coef: float = 0.5
    max_grad_norm: float = 0.5
    target_kl: float | None = 0.05
    reward_scale: float = 0.1  # tai units x scale: values of order 1
    # leave the learner's forced decisions (one legal action) out of the update: they carry no policy
    # gradient (ratio 1, entropy 0) but dilute each minibatch's mean and the advantage normalisation
    drop_forced: bool = False
    # "shared": the policy's own value head is the critic; "oracle": a separate critic (training.critic)
    # reads the actor's input plus oracle_v0's hidden planes (opponents' hands, the wall's next draws),
    # so advantages carry less of the draws' luck; the actor never reads them (Suphx's oracle guiding)
    critic: str = "shared"
    # luck-corrected credit (training.luck_credit): take beta . (each draw's luck terms) off the reward
    # credited to every seat's last decision before the draw. Each term has conditional mean zero given
    # the history, so the returns keep their expectation and lose the luck the terms explain
    luck_credit: bool = False
    luck_credit_scale: float = 1.0  # multiplies the fitted coefficients (0: the machinery, no correction)
    luck_beta: str | None = None  # the coefficients' file (None: training/luck_beta.json, fitted on other walls)
    # the value loss trains only the value head: the shared features (and so the policy's argmax) move
    # by the policy loss alone, not by a regression on returns that are mostly luck
    value_detach: bool = False
    # "gae": advantages along each seat's chain of decisions (GAE over the critic's values); "oracle":
    # each learner decision's advantage from rollouts of the true state (training.oracle_targets: the
    # hidden hands kept, the wall's order dealt again oracle_k times, the rollout policy at every seat):
    # the sampled action's mean chips minus the policy-weighted mean over it and the policy's next
    # oracle_n - 1 most probable legal actions, on the same wall orders. A critic that reads the hidden
    # state, as the oracle critic does, but by simulation: nothing of it reaches the actor's input
    advantage: str = "gae"
    oracle_k: int = 8
    oracle_n: int = 4
    oracle_rollout: str = "efficient"  # agents.search.ROLLOUTS (defensive: about 14 times the cost)
    critic_lr: float = 1e-3  # the oracle critic's Adam learning rate (constant)
    probe_states: int = 1024  # fixed learner states (of the first rollout) on which log.csv tracks the argmax's change
    selfplay_frac: float = 0.25  # games where the policy plays all four seats
    opponents: tuple[str, ...] = ("greedy", "defensive", "pool")  # drawn uniformly per opponent seat
    pool_every: int = 5  # updates between snapshots added to the pool
    pool_size: int = 6
    init_checkpoint: str | None = None  # e.g. a behaviour-cloning checkpoint
    resume: str | None = None  # a training state (train_state.pt) to continue
    out_dir: str = "runs/ppo"
    checkpoint_every: int = 10
    # one thread each for torch and the native core: on 2 busy cores more threads thrash (measured 147 vs
    # 2,782 decisions/s); raise both on a quiet many-core box
    torch_threads: int = 1  # torch's threads (1 on a small shared machine, see core_threads)
    core_threads: int = 1  # the native core's threads for batch calls (0: all cores; 1 on 2 busy cores: more thrash)
    net: NetConfig = field(default_factory=NetConfig)
    # where the networks run and learn (cpu | cuda | cuda:N | auto); the engine stays on the CPU threads.
    # Ray rollout workers play on their CPUs whatever this says
    device: str = "cpu"
    progress: bool = True
    workers: int = 0  # rollout workers as Ray actors (0: roll out in this process); needs the `ray` extra
    ray: str | None = None  # Ray cluster address ("auto", "ray://host:10001"); None with workers > 0: a local Ray
    numba_threads: InitVar[int | None] = None  # core_threads' old name, still accepted (docs/versions.md, History)

    def __post_init__(self, numba_threads: int | None) -> None:
        if numba_threads is not None:
            self.core_threads = numba_threads
        if self.advantage not in ADVANTAGES:
            raise ValueError(f"advantage must be one of {list(ADVANTAGES)}, got {self.advantage!r}")
        if self.advantage == "oracle":
            from agents.search import check_oracle_rollout

            check_oracle_rollout(self.oracle_rollout, "oracle_rollout")
            if not (1 <= self.oracle_k <= 4096 and 2 <= self.oracle_n <= 16):
                raise ValueError(
                    f"oracle_k must be in 1..4096 and oracle_n in 2..16, got {self.oracle_k}, {self.oracle_n}"
                )
        if self.critic not in CRITICS:
            raise ValueError(f"critic must be one of {list(CRITICS)}, got {self.critic!r}")
