package dev.interlock.cli;

import static dev.interlock.model.TestProperties.withProperty;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code interlock prove}: real Groth16 proofs on the engine, a timeline, and verification. */
class ProveCommandTest {
  @TempDir
  Path keys;

  @Test
  void provesAndVerifiesEveryPartitionUnderSingleLock() {
    CliTest.Run r = CliTest.run("prove", "--n", "2^8", "--partitions", "4", "--workers", "3", "--design", "designs/single-lock.design",
        "--keys", keys.toString(), "--seed", "5");
    assertThat(r.status()).as(r.out() + r.err()).isZero();
    assertThat(r.out()).contains("4/4 proofs verified").contains("seed 5 (rerun: --seed 5)")
        .containsPattern("TIMELINE +[0-9.]+ ms  begin synthesize +job 0 ")
        .containsPattern("stages +synthesize [0-9.]+ ms, stage [0-9.]+ ms, ntt_h [0-9.]+ ms, msm [0-9.]+ ms, b_g2_msm [0-9.]+ ms, epilogue")
        .contains("(within vram)")
        .containsPattern("locks +compute_mtx held [0-9.]+ ms, waited [0-9.]+ ms \\(medians per take\\)");
    try (var files = Files.list(keys)) {
      assertThat(files.filter(f -> f.toString().endsWith(".key"))).hasSize(1);
    } catch (java.io.IOException e) {
      throw new AssertionError(e);
    }
    CliTest.Run again = CliTest.run("prove", "--n", "2^8", "--partitions", "2", "--design", "designs/reservation.design",
        "--keys", keys.toString(), "--seed", "6", "--no-timeline");
    assertThat(again.status()).as(again.out() + again.err()).isZero();
    assertThat(again.out()).contains("(loaded,").contains("2/2 proofs verified").doesNotContain("TIMELINE");
  }

  @Test
  void aFilecoinWitnessProvesAndVerifies() throws Exception {
    CliTest.Run r = CliTest.run("prove", "--n", "2^8", "--partitions", "3", "--workers", "2", "--design",
        "designs/single-lock-late-release.design", "--keys", keys.toString(), "--seed", "8", "--no-timeline",
        "--witness", "filecoin", "--full-scalars", "5%");
    assertThat(r.status()).as(r.out() + r.err()).isZero();
    assertThat(r.out()).contains("3/3 proofs verified")
        .containsPattern("witness +filecoin \\(5% full-width\\): [0-9]+ of 258 variables full-width \\([0-9.]+%: the inputs, "
            + "the seeds and [0-9]+ full-width rows\\), the others 0 or 1 \\([0-9]+ of them free bits\\)");
    try (var files = Files.list(keys)) {
      assertThat(files.map(f -> f.getFileName().toString())).containsExactly("groth16-bls12381-n8-p2-s1-filecoin50000.key");
    }
    CliTest.Run field = CliTest.run("prove", "--n", "2^6", "--partitions", "1", "--design", "designs/single-lock.design",
        "--keys", keys.toString(), "--seed", "8", "--no-timeline");
    assertThat(field.out()).contains("witness   field: every variable but the one full-width (65 of 66)");
  }

  @Test
  void inlineG2RunsAtItsStepAndTheDurationsFileTimesEveryStep(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir)
      throws Exception {
    java.nio.file.Path file = dir.resolve("d.txt");
    CliTest.Run r = CliTest.run("prove", "--n", "2^8", "--partitions", "3", "--workers", "1", "--design",
        "designs/single-lock.design", "--keys", keys.toString(), "--seed", "9", "--no-timeline", "--b-g2", "inline",
        "--durations-out", file.toString());
    assertThat(r.status()).as(r.out() + r.err()).isZero();
    assertThat(r.out()).contains("3/3 proofs verified");
    var measured = dev.interlock.model.sim.DurationsFile.read(file);
    assertThat(measured).extracting(m -> m.name() + " " + m.kind().text()).containsExactly("synthesize cpu", "ntt_msm kernel",
        "b_g2_msm cpu", "epilogue cpu");
    assertThat(measured).allSatisfy(m -> assertThat(m.seconds()).hasSize(3));
    assertThat(measured.get(0).cores()).isPresent();
    // inline, the step is the whole G2 MSM (its stage time), not a wait for a G2 MSM started at synthesis
    double stage = Double.parseDouble(r.out().replaceAll("(?s).*b_g2_msm ([0-9.]+) ms.*", "$1")) / 1e3;
    double step = measured.get(2).seconds().stream().sorted().toList().get(1);
    assertThat(step).isGreaterThanOrEqualTo(stage * 0.9);
  }

  @Test
  void badWitnessOptionsAreInputErrors() {
    CliTest.Run kind = CliTest.run("prove", "--witness", "bits", "--design", "designs/single-lock.design", "--keys", keys.toString());
    assertThat(kind.status()).isEqualTo(2);
    assertThat(kind.err()).contains("--witness must be field or filecoin, got 'bits'").doesNotContain("Exception");
    CliTest.Run field = CliTest.run("prove", "--full-scalars", "2%", "--design", "designs/single-lock.design", "--keys", keys.toString());
    assertThat(field.status()).isEqualTo(2);
    assertThat(field.err()).contains("--full-scalars needs --witness filecoin");
    CliTest.Run share = CliTest.run("prove", "--witness", "filecoin", "--full-scalars", "150%", "--design", "designs/single-lock.design",
        "--keys", keys.toString());
    assertThat(share.status()).isEqualTo(2);
    assertThat(share.err()).contains("--full-scalars: a share must be a percentage in [0, 100]").contains("got '150%'")
        .doesNotContain("Exception");
  }

  @Test
  void badSizesAreInputErrors() {
    CliTest.Run r = CliTest.run("prove", "--n", "1000", "--design", "designs/single-lock.design", "--keys", keys.toString());
    assertThat(r.status()).isEqualTo(2);
    assertThat(r.err()).contains("--n must be a power of two, as 4096 or 2^12, got '1000'").doesNotContain("Exception");
    CliTest.Run p = CliTest.run("prove", "--partitions", "0", "--design", "designs/single-lock.design", "--keys", keys.toString());
    assertThat(p.status()).isEqualTo(2);
  }

  @Test
  void bG2OnTheDeviceProvesUnderADesignWithAKernelStepAndIsAnInputErrorElsewhere() {
    CliTest.Run r = CliTest.run("prove", "--b-g2", "gpu", "--n", "2^6", "--partitions", "3", "--workers", "2", "--design",
        "designs/single-lock-g2-gpu.design", "--keys", keys.toString(), "--seed", "7", "--no-timeline");
    assertThat(r.status()).as(r.out() + r.err()).isZero();
    assertThat(r.out()).contains("3/3 proofs verified").containsPattern("b_g2_msm [0-9.]+ ms");
    CliTest.Run cpuDesign = CliTest.run("prove", "--b-g2", "gpu", "--n", "2^6", "--design", "designs/single-lock.design",
        "--keys", keys.toString());
    assertThat(cpuDesign.status()).isEqualTo(2);
    assertThat(cpuDesign.err()).contains("designs/single-lock.design: --b-g2 gpu: role gpu_worker: b_g2_msm on the GPU needs")
        .contains("only `cpu b_g2_msm`").doesNotContain("Exception");
    CliTest.Run kernelDesign = CliTest.run("prove", "--n", "2^6", "--design", "designs/single-lock-g2-gpu.design",
        "--keys", keys.toString());
    assertThat(kernelDesign.status()).isEqualTo(2);
    assertThat(kernelDesign.err()).contains("--b-g2 cpu").contains("run it on the GPU (--b-g2 gpu)").doesNotContain("Exception");
    CliTest.Run bad = CliTest.run("prove", "--b-g2", "tpu", "--design", "designs/single-lock.design", "--keys", keys.toString());
    assertThat(bad.status()).isEqualTo(2);
    assertThat(bad.err()).contains("--b-g2 must be cpu, gpu, split or inline, got 'tpu'");
  }

  @Test
  void splitBG2ProvesUnderTheSplitDesignReportsBothStagesAndTheRatioAndWrongDesignsAreInputErrors() {
    for (String witnessKind : new String[] {"filecoin", "field"}) {
      CliTest.Run r = CliTest.run("prove", "--b-g2", "split", "--witness", witnessKind, "--n", "2^6", "--partitions", "3",
          "--workers", "2", "--design", "designs/single-lock-g2-split.design", "--keys", keys.toString(), "--seed", "7",
          "--no-timeline");
      assertThat(r.status()).as(r.out() + r.err()).isZero();
      assertThat(r.out()).contains("3/3 proofs verified").containsPattern("b_g2_ones [0-9.]+ ms, b_g2_msm [0-9.]+ ms")
          .containsPattern("(?m)^gpu_section_over_host_b_g2 [0-9]+\\.[0-9]{2} \\(medians: stage \\+ ntt_h \\+ msm \\+ b_g2_ones over host b_g2_msm");
    }
    CliTest.Run gpu = CliTest.run("prove", "--b-g2", "gpu", "--n", "2^6", "--partitions", "1", "--design",
        "designs/single-lock-g2-gpu.design", "--keys", keys.toString(), "--seed", "7", "--no-timeline");
    assertThat(gpu.out()).doesNotContain("gpu_section_over_host_b_g2"); // b_g2_msm is no host work there
    CliTest.Run single = CliTest.run("prove", "--b-g2", "split", "--n", "2^6", "--design", "designs/single-lock.design",
        "--keys", keys.toString());
    assertThat(single.status()).isEqualTo(2);
    assertThat(single.err()).contains("designs/single-lock.design: --b-g2 split: role gpu_worker: b_g2_msm split needs a design step "
        + "`kernel b_g2_ones uses g2_bases`").contains("e.g. designs/single-lock-g2-split.design").doesNotContain("Exception");
    CliTest.Run gpuDesign = CliTest.run("prove", "--b-g2", "split", "--n", "2^6", "--design", "designs/single-lock-g2-gpu.design",
        "--keys", keys.toString());
    assertThat(gpuDesign.status()).isEqualTo(2);
    assertThat(gpuDesign.err()).contains("designs/single-lock-g2-gpu.design: --b-g2 split").contains("run this design with --b-g2 gpu");
    for (String mode : new String[] {"cpu", "gpu"}) {
      CliTest.Run splitDesign = CliTest.run("prove", "--b-g2", mode, "--n", "2^6", "--design", "designs/single-lock-g2-split.design",
          "--keys", keys.toString());
      assertThat(splitDesign.status()).as(mode).isEqualTo(2);
      assertThat(splitDesign.err()).contains("designs/single-lock-g2-split.design: --b-g2 " + mode).contains("--b-g2 split")
          .doesNotContain("Exception");
    }
  }

  @Test
  void msmTablesProveUnderADesignWhoseBufferHoldsThemAndAreInputErrorsOtherwise(@TempDir Path dir) throws Exception {
    CliTest.Run r = CliTest.run("prove", "--msm-tables", "13", "--n", "2^6", "--partitions", "3", "--workers", "2", "--design",
        "designs/reservation-msm-tables.design", "--keys", keys.toString(), "--seed", "7", "--no-timeline");
    assertThat(r.status()).as(r.out() + r.err()).isZero();
    assertThat(r.out()).contains("3/3 proofs verified")
        .containsPattern("(?m)^tables +msm_tables: 13 copies of each base of the 4 G1 base sets, [0-9.]+ MiB \\([0-9]+ B\\) with the "
            + "bases, of 5GiB declared; built once in [0-9.]+ ms .*without it about [0-9.]+ s, [0-9.]+ proofs per minute\\)$")
        .containsPattern("(?m)^gpu_section_over_host_b_g2 [0-9.]+ \\(medians: stage \\+ ntt_h \\+ msm over host b_g2_msm;");
    Path small = dir.resolve("small-tables.design");
    Files.writeString(small, Files.readString(Path.of("designs/reservation-msm-tables.design"))
        .replace("buffer msm_tables 5GiB", "buffer msm_tables 64KiB"));
    CliTest.Run tooSmall = CliTest.run("prove", "--msm-tables", "13", "--n", "2^6", "--design", small.toString(), "--keys", keys.toString());
    assertThat(tooSmall.status()).as(tooSmall.out() + tooSmall.err()).isEqualTo(2);
    assertThat(tooSmall.err()).contains(small + ": buffer msm_tables is 65536 bytes").containsPattern("need [0-9]+ bytes")
        .contains("MiB declared").doesNotContain("Exception");
    CliTest.Run noBuffer = CliTest.run("prove", "--msm-tables", "13", "--n", "2^6", "--design", "designs/single-lock.design",
        "--keys", keys.toString());
    assertThat(noBuffer.status()).isEqualTo(2);
    assertThat(noBuffer.err()).contains("designs/single-lock.design: role gpu_worker: --msm-tables 13: step `kernel ntt_msm uses staged "
        + "scratch` does not use msm_tables").doesNotContain("Exception");
    CliTest.Run off = CliTest.run("prove", "--n", "2^6", "--design", "designs/reservation-msm-tables.design", "--keys", keys.toString());
    assertThat(off.status()).isEqualTo(2);
    assertThat(off.err()).contains("designs/reservation-msm-tables.design: role gpu_worker: step `kernel ntt_msm uses staged scratch "
        + "msm_tables` uses msm_tables, but MSM tables are off: run with --msm-tables K");
    CliTest.Run one = CliTest.run("prove", "--msm-tables", "1", "--design", "designs/reservation-msm-tables.design", "--keys",
        keys.toString());
    assertThat(one.status()).isEqualTo(2);
    assertThat(one.err()).contains("--msm-tables must be at least 2");
  }

  @Test
  void deviceOptionsAreCheckedAndAMissingGpuIsAnInputError() {
    CliTest.Run kind = CliTest.run("prove", "--device", "tpu", "--design", "designs/single-lock.design", "--keys", keys.toString());
    assertThat(kind.status()).isEqualTo(2);
    assertThat(kind.err()).contains("--device must be simulated or gpu, got 'tpu'").doesNotContain("Exception");
    CliTest.Run budget = CliTest.run("prove", "--gpu-budget", "1GiB", "--design", "designs/single-lock.design", "--keys", keys.toString());
    assertThat(budget.status()).isEqualTo(2);
    assertThat(budget.err()).contains("--gpu-budget needs --device gpu");
    CliTest.Run size = CliTest.run("prove", "--device", "gpu", "--gpu-budget", "lots", "--design", "designs/single-lock.design",
        "--keys", keys.toString());
    assertThat(size.status()).isEqualTo(2);
    assertThat(size.err()).contains("--gpu-budget").doesNotContain("Exception");
    if (dev.interlock.gpu.cuda.CudaDevice.unavailable().isPresent()) {
      CliTest.Run gpu = CliTest.run("prove", "--device", "gpu", "--n", "2^6", "--partitions", "1", "--design", "designs/single-lock.design",
          "--keys", keys.toString());
      assertThat(gpu.status()).isEqualTo(2);
      assertThat(gpu.err()).contains("--device gpu: ").doesNotContain("Exception");
    }
  }

  @Test
  void reusedHostWorkStillProvesEveryPartitionAndOverlapsAreCounted() {
    CliTest.Run r = CliTest.run("prove", "--n", "2^8", "--partitions", "4", "--workers", "3", "--design", "designs/single-lock.design",
        "--keys", keys.toString(), "--seed", "9", "--no-timeline", "--reuse-host-work", "--overlap", "b_g2_msm", "ntt_msm");
    assertThat(r.status()).as(r.out() + r.err()).isZero();
    assertThat(r.out()).contains("synthesize and b_g2_msm ran once before the run").contains("4/4 proofs verified")
        .containsPattern("overlap +b_g2_msm beside ntt_msm on another worker: [0-9]+ times");
  }

  @Test
  void anOverlapOfAnIntervalTheDesignLacksIsAnInputError() {
    CliTest.Run r = CliTest.run("prove", "--design", "designs/single-lock.design", "--keys", keys.toString(),
        "--overlap", "nope", "ntt_msm");
    assertThat(r.status()).isEqualTo(2);
    assertThat(r.err()).contains("designs/single-lock.design: --overlap: no interval 'nope'").doesNotContain("Exception");
  }

  @Test
  void aBadMsmImplementationPropertyIsAnInputErrorNotACrash() {
    withProperty("interlock.msm", "gpu", () -> {
      CliTest.Run r = CliTest.run("bench-msm", "--from", "4", "--to", "4");
      assertThat(r.status()).isEqualTo(2);
      assertThat(r.err()).contains("-Dinterlock.msm must be native or java, not 'gpu'").doesNotContain("Exception");
    });
  }

  @Test
  void aBadGpuMsmSettingIsAnInputErrorNotACrash() {
    withProperty("interlock.msm.sortPassEntries", "many", () -> {
      CliTest.Run r = CliTest.run("bench-msm", "--from", "4", "--to", "4");
      assertThat(r.status()).isEqualTo(2);
      assertThat(r.err()).contains("-Dinterlock.msm.sortPassEntries=many: expected a non-negative number of digits per key range")
          .doesNotContain("Exception");
    });
  }

  @Test
  void benchMsmRangesAreChecked() {
    CliTest.Run r = CliTest.run("bench-msm", "--from", "5", "--to", "4");
    assertThat(r.status()).isEqualTo(2);
    assertThat(r.err()).contains("need 1 <= --from <= --to <= 24, got 5..4");
    CliTest.Run kind = CliTest.run("bench-msm", "--scalars", "sparse");
    assertThat(kind.status()).isEqualTo(2);
    assertThat(kind.err()).contains("--scalars must be random or filecoin, got 'sparse'");
    CliTest.Run share = CliTest.run("bench-msm", "--full-scalars", "1%");
    assertThat(share.status()).isEqualTo(2);
    assertThat(share.err()).contains("--full-scalars needs --scalars filecoin");
  }

  @Test
  void benchMsmComparesTheSplitMsmWithThePlainOne() {
    CliTest.Run r = CliTest.run("bench-msm", "--from", "8", "--to", "8", "--scalars", "filecoin", "--full-scalars", "3%");
    assertThat(r.status()).as("exit 1 when the split MSM and the plain one disagree: " + r.err()).isZero();
  }
}
