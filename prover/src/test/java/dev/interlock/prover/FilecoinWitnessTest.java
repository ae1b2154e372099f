package dev.interlock.prover;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.interlock.prover.curve.Msm;
import dev.interlock.prover.curve.ScalarSplit;
import dev.interlock.prover.field.FrElement;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The Filecoin-like witness shape: its circuits are satisfied by their witnesses, which are mostly 0/1, and prove. */
class FilecoinWitnessTest {
  private static Circuit filecoin(int logN, int p, long seed, int ppm) {
    return Circuit.synthetic(new Circuit.Params(logN, p, seed, WitnessShape.filecoin(ppm)));
  }

  @Test
  void witnessesSatisfyTheCircuitForAnyShare() {
    SplittableRandom rnd = Groth16TestSupport.random("FilecoinWitnessTest.witnessesSatisfyTheCircuitForAnyShare", 31);
    for (int logN = 4; logN <= 12; logN++) {
      for (int ppm : new int[] {0, 10_000, 100_000, WitnessShape.PPM}) {
        int p = 1 + rnd.nextInt(Math.min(8, (1 << logN) / 2 - 1));
        Circuit circuit = filecoin(logN, p, rnd.nextLong(), ppm);
        assertThat(circuit.numVariables()).isEqualTo((1 << logN) + Circuit.PRIVATE_SEEDS);
        for (int k = 0; k < 2; k++) {
          Witness w = circuit.witness(rnd);
          assertThat(circuit.firstUnsatisfiedRow(w)).as("logN=%d p=%d ppm=%d", logN, p, ppm).isEqualTo(-1);
        }
      }
    }
  }

  @Test
  void theWitnessIsZeroOrOneExceptInputsSeedsAndFullWidthRows() {
    SplittableRandom rnd = Groth16TestSupport.random("FilecoinWitnessTest.theWitnessIsZeroOrOne", 32);
    int p = 3;
    Circuit circuit = filecoin(12, p, rnd.nextLong(), WitnessShape.DEFAULT_FILECOIN_FULL_PPM);
    int regular = circuit.size() - p - 1;
    // the first max(p, 2) rows, then 1% of the others: 41 expected, standard deviation 6.4
    assertThat(circuit.fullWidthRows()).isBetween(p + 15, p + 70);
    assertThat(circuit.freeBitRows()).isBetween(regular / 3, regular / 2);
    Witness w = circuit.witness(rnd);
    ScalarSplit split = ScalarSplit.of(w.canonicalLimbs());
    assertThat(split.full()).as("inputs, seeds and full-width rows").isEqualTo(p + Circuit.PRIVATE_SEEDS + circuit.fullWidthRows());
    double ones = split.ones() / (double) (split.ones() + split.zeros());
    assertThat(ones).as("share of ones among the bits").isBetween(0.30, 0.46);
  }

  @Test
  void theInputsAndSeedsDetermineTheWitness() {
    SplittableRandom rnd = Groth16TestSupport.random("FilecoinWitnessTest.theInputsAndSeedsDetermineTheWitness", 33);
    Circuit circuit = filecoin(8, 2, 9, 50_000);
    List<FrElement> inputs = List.of(FrElement.random(rnd), FrElement.random(rnd));
    List<FrElement> seeds = List.of(FrElement.random(rnd), FrElement.random(rnd));
    Witness a = circuit.witness(inputs, seeds);
    Witness b = circuit.witness(inputs, seeds);
    Witness other = circuit.witness(inputs, List.of(seeds.get(0), seeds.get(1).add(FrElement.ONE)));
    boolean same = true;
    boolean differs = false;
    for (int j = 0; j < circuit.numVariables(); j++) {
      same &= a.get(j).equals(b.get(j));
      differs |= !a.get(j).equals(other.get(j)) && j > 2 + Circuit.PRIVATE_SEEDS;
    }
    assertThat(same).isTrue();
    assertThat(differs).as("another seed draws other bits").isTrue();
  }

  @Test
  void aBitChangedToTwoBreaksTheWitness() {
    SplittableRandom rnd = Groth16TestSupport.random("FilecoinWitnessTest.aBitChangedToTwoBreaksTheWitness", 34);
    Circuit circuit = filecoin(7, 2, rnd.nextLong(), 0);
    Witness w = circuit.witness(rnd);
    for (int j = 1 + 2 + Circuit.PRIVATE_SEEDS; j < circuit.numVariables(); j++) {
      if (w.get(j).equals(FrElement.ZERO) || w.get(j).equals(FrElement.ONE)) {
        assertThat(circuit.isSatisfied(w.with(j, FrElement.of(2)))).as("variable %d set to 2", j).isFalse();
      }
    }
  }

  @Test
  void itIsAnotherCircuitThanTheFieldOne() {
    Circuit field = Circuit.synthetic(6, 2, 5);
    Circuit fc = filecoin(6, 2, 5, 10_000);
    assertThat(fc).isNotEqualTo(field);
    assertThat(fc.params().toString()).isEqualTo("logN=6, publicInputs=2, structureSeed=5, witness=filecoin (1% full-width)");
    assertThat(field.params().toString()).isEqualTo("logN=6, publicInputs=2, structureSeed=5");
    assertThat(field.fullWidthRows()).isEqualTo(field.size() - 3);
    assertThat(field.freeBitRows()).isZero();
    assertThatThrownBy(() -> new WitnessShape(WitnessShape.Kind.FIELD, 5)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> WitnessShape.filecoin(-1)).isInstanceOf(IllegalArgumentException.class);
    assertThat(WitnessShape.filecoin(2_500).fullPercent()).isEqualTo("0.25%");
    assertThat(WitnessShape.ppmOfPercent("1%")).isEqualTo(10_000);
    assertThat(WitnessShape.ppmOfPercent(" 0.25 ")).isEqualTo(2_500);
    assertThat(WitnessShape.ppmOfPercent("100")).isEqualTo(WitnessShape.PPM);
    for (String bad : new String[] {"101%", "-1", "0.00001", "lots", "%"}) {
      assertThatThrownBy(() -> WitnessShape.ppmOfPercent(bad)).as(bad).isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("got '" + bad + "'");
    }
  }

  @Test
  void proofsVerifyAndTheSplitMsmsEqualThePlainOnes() {
    SplittableRandom rnd = Groth16TestSupport.random("FilecoinWitnessTest.proofsVerify", 35);
    for (int logN : new int[] {5, 8}) {
      Circuit circuit = filecoin(logN, 2, rnd.nextLong(), 20_000);
      Keys keys = Groth16TestSupport.keys(circuit);
      Witness w = circuit.witness(rnd);
      Proof proof = Prover.prove(keys.pk(), circuit, w, rnd);
      assertThat(Verifier.verify(keys.vk(), proof, w.publicInputs())).as("logN=%d", logN).isTrue();
      long[] scalars = w.canonicalLimbs();
      assertThat(Prover.bG2Msm(keys.pk(), w)).isEqualTo(Msm.msm(keys.pk().bG2Query(), scalars));
      long[] h = Prover.computeH(Prover.synthesize(circuit, w));
      assertThat(Prover.msm(keys.pk(), w, h).a()).isEqualTo(Msm.msm(keys.pk().aQuery(), scalars));
    }
  }
}
