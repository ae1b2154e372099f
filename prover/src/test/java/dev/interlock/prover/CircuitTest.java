package dev.interlock.prover;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.interlock.prover.field.FrElement;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class CircuitTest {
  @Test
  void witnessesSatisfyTheCircuit() {
    SplittableRandom rnd = Groth16TestSupport.random("CircuitTest.witnessesSatisfyTheCircuit", 10);
    for (int logN = 4; logN <= 12; logN++) {
      int p = 1 + rnd.nextInt(Math.min(8, (1 << logN) / 2 - 1));
      Circuit circuit = Circuit.synthetic(logN, p, rnd.nextLong());
      assertThat(circuit.size()).isEqualTo(1 << logN);
      assertThat(circuit.a().rows()).isEqualTo(1 << logN);
      assertThat(circuit.b().rows()).isEqualTo(1 << logN);
      assertThat(circuit.c().rows()).isEqualTo(1 << logN);
      assertThat(circuit.numVariables()).isEqualTo((1 << logN) + Circuit.PRIVATE_SEEDS);
      Witness w = circuit.witness(rnd);
      assertThat(circuit.isSatisfied(w)).as("logN=%d p=%d", logN, p).isTrue();
      assertThat(w.get(0)).isEqualTo(FrElement.ONE);
      assertThat(w.publicInputs()).hasSize(p);
    }
  }

  @Test
  void changingAnyVariableBreaksTheWitness() {
    SplittableRandom rnd = Groth16TestSupport.random("CircuitTest.changingAnyVariableBreaksTheWitness", 11);
    Circuit circuit = Circuit.synthetic(5, 3, rnd.nextLong());
    Witness w = circuit.witness(rnd);
    for (int j = 0; j < circuit.numVariables(); j++) {
      Witness bad = w.with(j, w.get(j).add(FrElement.random(rnd)));
      assertThat(circuit.isSatisfied(bad)).as("variable %d changed", j).isFalse();
    }
    // and in a larger circuit, random private variables
    Circuit big = Circuit.synthetic(12, 2, rnd.nextLong());
    Witness bw = big.witness(rnd);
    for (int k = 0; k < 20; k++) {
      int j = 1 + rnd.nextInt(big.numVariables() - 1);
      int row = big.firstUnsatisfiedRow(bw.with(j, FrElement.random(rnd)));
      assertThat(row).as("variable %d changed", j).isGreaterThanOrEqualTo(0);
    }
  }

  @Test
  void witnessForGivenInputsCarriesThem() {
    SplittableRandom rnd = Groth16TestSupport.random("CircuitTest.witnessForGivenInputsCarriesThem", 12);
    Circuit circuit = Circuit.synthetic(6, 3, 5);
    List<FrElement> inputs = List.of(FrElement.of(1), FrElement.of(2), FrElement.random(rnd));
    Witness w = circuit.witness(inputs, rnd);
    assertThat(w.publicInputs()).isEqualTo(inputs);
    assertThat(circuit.isSatisfied(w)).isTrue();
    List<FrElement> seeds = List.of(FrElement.of(3), FrElement.of(4));
    assertThat(circuit.witness(inputs, seeds).get(circuit.numVariables() - 1))
        .isEqualTo(circuit.witness(inputs, seeds).get(circuit.numVariables() - 1));
    assertThatThrownBy(() -> circuit.witness(inputs.subList(0, 2), rnd)).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void structureIsDeterministicInTheSeed() {
    Circuit a = Circuit.synthetic(8, 2, 42);
    Circuit b = Circuit.synthetic(8, 2, 42);
    Circuit c = Circuit.synthetic(8, 2, 43);
    assertThat(sameStructure(a.a(), b.a()) && sameStructure(a.b(), b.b()) && sameStructure(a.c(), b.c())).isTrue();
    assertThat(sameStructure(a.a(), c.a()) && sameStructure(a.b(), c.b())).isFalse();
    assertThat(a).isEqualTo(b).isNotEqualTo(c);
  }

  private static boolean sameStructure(SparseMatrix x, SparseMatrix y) {
    if (x.nonZeros() != y.nonZeros() || x.rows() != y.rows()) {
      return false;
    }
    for (int i = 0; i <= x.rows(); i++) {
      if (x.rowStart(i) != y.rowStart(i)) {
        return false;
      }
    }
    for (int k = 0; k < x.nonZeros(); k++) {
      if (x.column(k) != y.column(k) || !x.coefficient(k).equals(y.coefficient(k))) {
        return false;
      }
    }
    return true;
  }

  @Test
  void densitiesAreAsDocumented() {
    int logN = 14;
    int p = 3;
    Circuit circuit = Circuit.synthetic(logN, p, 2024);
    int n = circuit.size();
    int regular = n - p - 1;
    int[] aCount = new int[4];
    int[] bCount = new int[3];
    int ones = 0;
    int minusOnes = 0;
    boolean[] used = new boolean[circuit.numVariables()];
    for (int row = 0; row < n; row++) {
      SparseMatrix a = circuit.a();
      SparseMatrix b = circuit.b();
      SparseMatrix c = circuit.c();
      if (row <= p) { // input rows x_i · 0 = 0
        assertThat(a.rowLength(row)).isEqualTo(1);
        assertThat(a.column(a.rowStart(row))).isEqualTo(row);
        assertThat(b.rowLength(row)).isZero();
        assertThat(c.rowLength(row)).isZero();
        continue;
      }
      int v = row + Circuit.PRIVATE_SEEDS;
      assertThat(a.rowLength(row)).isBetween(1, 3);
      assertThat(b.rowLength(row)).isBetween(1, 2);
      assertThat(c.rowLength(row)).isEqualTo(1);
      assertThat(c.column(c.rowStart(row))).isEqualTo(v);
      assertThat(c.coefficient(c.rowStart(row))).isEqualTo(FrElement.ONE);
      aCount[a.rowLength(row)]++;
      bCount[b.rowLength(row)]++;
      List<Integer> cols = new ArrayList<>();
      for (int k = a.rowStart(row); k < a.rowStart(row + 1); k++) {
        assertThat(a.column(k)).isLessThan(v);
        assertThat(cols).doesNotContain(a.column(k));
        cols.add(a.column(k));
        used[a.column(k)] = true;
        FrElement coef = a.coefficient(k);
        ones += coef.isOne() ? 1 : 0;
        minusOnes += coef.equals(FrElement.ONE.neg()) ? 1 : 0;
      }
      for (int k = b.rowStart(row); k < b.rowStart(row + 1); k++) {
        assertThat(b.column(k)).isLessThan(v);
        used[b.column(k)] = true;
      }
    }
    double r = regular;
    assertThat(aCount[1] / r).isBetween(0.37, 0.43);
    assertThat(aCount[2] / r).isBetween(0.32, 0.38);
    assertThat(aCount[3] / r).isBetween(0.22, 0.28);
    assertThat(bCount[2] / r).isBetween(0.08, 0.12);
    int aTerms = circuit.a().nonZeros() - (p + 1);
    assertThat(ones / (double) aTerms).isBetween(0.47, 0.53);
    assertThat(minusOnes / (double) aTerms).isBetween(0.13, 0.17);
    assertThat(circuit.a().nonZeros() / (double) n).isBetween(1.8, 1.9);
    assertThat(circuit.b().nonZeros() / r).isBetween(1.08, 1.12);
    assertThat(circuit.c().nonZeros()).isEqualTo(regular);
    // every public input and private seed is used by some regular row
    for (int j = 1; j <= p + Circuit.PRIVATE_SEEDS; j++) {
      assertThat(used[j]).as("variable %d used", j).isTrue();
    }
  }

  @Test
  void parametersAreValidated() {
    assertThatThrownBy(() -> Circuit.synthetic(3, 1, 0)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("logN");
    assertThatThrownBy(() -> Circuit.synthetic(23, 1, 0)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> Circuit.synthetic(4, 0, 0)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("publicInputs");
    assertThatThrownBy(() -> Circuit.synthetic(4, 8, 0)).isInstanceOf(IllegalArgumentException.class);
    assertThat(Circuit.synthetic(4, 7, 0).publicInputs()).isEqualTo(7);
  }

  @Test
  void witnessOfAnotherCircuitIsRejected() {
    SplittableRandom rnd = Groth16TestSupport.random("CircuitTest.witnessOfAnotherCircuitIsRejected", 13);
    Circuit a = Circuit.synthetic(5, 1, 1);
    Circuit b = Circuit.synthetic(5, 1, 2);
    Witness wb = b.witness(rnd);
    assertThatThrownBy(() -> a.isSatisfied(wb)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("witness is for circuit");
    assertThatThrownBy(() -> Prover.synthesize(a, wb)).isInstanceOf(IllegalArgumentException.class);
  }
}
