package dev.interlock.cli;

import static dev.interlock.cli.CliTest.design;
import static dev.interlock.cli.CliTest.parseJson;
import static dev.interlock.cli.CliTest.run;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** {@code check --threads ROLE=any} and {@code --jobs ROLE=any} end to end. */
class CheckAnyTest {
  @ParameterizedTest
  @ValueSource(strings = {"2", "any"})
  void singleLockIsSafeForEveryNumberOfWorkers(String jobs) {
    CliTest.Run r = run("check", design("single-lock"), "--threads", "gpu_worker=any", "--jobs", "gpu_worker=" + jobs);
    assertThat(r.status()).as(r.describe()).isZero();
    assertThat(r.out()).contains("checked   vram 16GiB, gpu_worker x any jobs " + jobs + "\n")
        .contains("verdict   SAFE for every number of gpu_worker threads (OOM, SWALLOWED_OOM, USE_AFTER_FREE, BAD_FREE, UNLOCK_NOT_HELD,"
            + " RELEASE_EXCESS); no DEADLOCK or LEAK up to 6\n")
        .contains("bounded   6 configurations up to 6 gpu_worker threads");
  }

  @Test
  void twoLockIsOomWithTwoWorkersAndTheNineTransitionTrace() {
    CliTest.Run r = run("check", design("two-lock"), "--threads", "gpu_worker=any", "--bounded-up-to", "3");
    assertThat(r.status()).as(r.describe()).isEqualTo(1);
    assertThat(r.out()).contains("verdict   OOM\n").contains("minimal   gpu_worker=2 ")
        .contains("counterexample (9 transitions, gpu_worker=2)")
        .contains("safe for every number: SWALLOWED_OOM, USE_AFTER_FREE, BAD_FREE, UNLOCK_NOT_HELD, RELEASE_EXCESS");
  }

  @Test
  @SuppressWarnings("unchecked")
  void jsonSaysParameterizedWithTheKindsSafeForEveryNumberAndTheBound() {
    CliTest.Run r = run("check", design("reservation"), "--threads", "gpu_worker=any", "--bounded-up-to", "3", "--json");
    assertThat(r.status()).as(r.describe()).isZero();
    Map<String, Object> m = (Map<String, Object>) parseJson(r.out());
    assertThat(m).containsEntry("verdict", "SAFE").containsEntry("parameterized", true)
        .containsEntry("bounded_up_to", 3L).containsEntry("bounded_configurations", 3L)
        .containsEntry("any_roles", List.of("gpu_worker")).containsEntry("unknown_reason", null)
        .containsEntry("threads", Map.of("gpu_worker", 3L))
        .containsEntry("safe_for_all_n", List.of("OOM", "SWALLOWED_OOM", "USE_AFTER_FREE", "BAD_FREE", "UNLOCK_NOT_HELD", "RELEASE_EXCESS"));
    assertThat((Long) m.get("coverability_basis_elements")).isPositive();
    assertThat(m).containsKeys("searched_states", "others", "others_complete", "coverability_local_states",
        "coverability_shared_states", "coverability_expanded_elements", "coverability_seconds", "bounded_seconds");
  }

  @Test
  @SuppressWarnings("unchecked")
  void aDesignOutsideBothMethodsIsUnknownWithTheReasonsAndExitsAsALimit() {
    // phase 10 pre-stages outside compute_mtx and keeps its buffers live after unlocking mem_mtx; on a card this large
    // nothing fails, and the bounded search goes on past 1 until a search passes --max-states
    CliTest.Run r = run("check", design("cuzk/phase10"), "--threads", "gpu_worker=any", "--bounded-up-to", "1",
        "--vram", "1024GiB", "--max-states", "20000", "--json");
    Map<String, Object> m = (Map<String, Object>) parseJson(r.out());
    assertThat((String) m.get("unknown_reason")).contains("'sync'").contains("'if free")
        .contains("no mutex isolates device memory; mem_mtx: gpu_worker's worker keeps 12GiB live")
        .contains("compute_mtx: 'sync' runs while gpu_worker's worker does not hold compute_mtx");
    assertThat(m).containsEntry("safe_for_all_n", List.of()).containsEntry("coverability_basis_elements", null)
        .containsEntry("parameterized_method", null).containsEntry("isolation_mutex", null);
    assertThat(m).containsEntry("verdict", "UNKNOWN");
    assertThat((Long) m.get("bounded_up_to")).as("past the bound given").isGreaterThan(1);
    assertThat(r.status()).isEqualTo(2);
    CliTest.Run at16 = run("check", design("cuzk/phase10"), "--threads", "gpu_worker=any", "--bounded-up-to", "1");
    assertThat(at16.status()).as(at16.describe()).isEqualTo(1);
    assertThat(at16.out()).contains("verdict   OOM").contains("minimal   gpu_worker=2").contains("up to 2 gpu_worker threads");
  }

  @Test
  @SuppressWarnings("unchecked")
  void headIsSafeForEveryNumberBecauseGpuMtxIsolatesTheWorkersMemory() {
    CliTest.Run r = run("check", design("cuzk/head"), "--threads", "gpu_worker=any", "--bounded-up-to", "3", "--json");
    assertThat(r.status()).as(r.describe()).isZero();
    Map<String, Object> m = (Map<String, Object>) parseJson(r.out());
    assertThat(m).containsEntry("verdict", "SAFE").containsEntry("parameterized_method", "isolation")
        .containsEntry("isolation_mutex", "gpu_mtx").containsEntry("unknown_reason", null)
        .containsEntry("coverability_local_states", null)
        .containsEntry("safe_for_all_n", List.of("OOM", "SWALLOWED_OOM", "USE_AFTER_FREE", "BAD_FREE", "UNLOCK_NOT_HELD", "RELEASE_EXCESS"));
    assertThat((Long) m.get("isolation_states")).isPositive();
    assertThat(m).containsKey("isolation_seconds");
    CliTest.Run text = run("check", design("cuzk/phase11"), "--threads", "gpu_worker=any", "--bounded-up-to", "2");
    assertThat(text.status()).as(text.describe()).isEqualTo(1);
    assertThat(text.out()).contains("verdict   SWALLOWED_OOM").contains("minimal   gpu_worker=1")
        .contains("isolated  gpu_mtx isolates every worker's device memory")
        .contains("safe for every number: OOM, USE_AFTER_FREE, BAD_FREE, UNLOCK_NOT_HELD, RELEASE_EXCESS");
  }

  @Test
  void anyIsForCheckOnlyAndNotForRandomOrOverlap() {
    CliTest.Run run = run("run", design("single-lock"), "--threads", "gpu_worker=any");
    assertThat(run.status()).isEqualTo(2);
    assertThat(run.err()).contains("--threads gpu_worker=any: only check takes any; give a number");
    CliTest.Run random = run("check", design("single-lock"), "--jobs", "gpu_worker=any", "--random", "5");
    assertThat(random.status()).isEqualTo(2);
    assertThat(random.err()).contains("--random needs numbers of threads and jobs, not any");
    CliTest.Run overlap = run("check", design("single-lock"), "--threads", "gpu_worker=any", "--overlap", "b_g2_msm", "ntt_msm");
    assertThat(overlap.status()).isEqualTo(2);
    assertThat(overlap.err()).contains("--overlap needs numbers of threads, not any");
    CliTest.Run word = run("check", design("single-lock"), "--threads", "gpu_worker=many");
    assertThat(word.status()).isEqualTo(2);
    assertThat(word.err()).contains("--threads gpu_worker: needs a number or any, got 'many'");
    CliTest.Run bound = run("check", design("single-lock"), "--bounded-up-to", "3");
    assertThat(bound.status()).isEqualTo(2);
    assertThat(bound.err()).contains("--bounded-up-to needs --threads ROLE=any");
  }

  @Test
  void jobsAnyAloneIsAnExhaustiveCheckOfLoopingThreads() {
    CliTest.Run r = run("check", design("two-lock"), "--jobs", "gpu_worker=any", "--threads", "gpu_worker=2");
    assertThat(r.status()).as(r.describe()).isEqualTo(1);
    assertThat(r.out()).contains("gpu_worker x2 jobs any").contains("verdict   OOM");
  }
}
