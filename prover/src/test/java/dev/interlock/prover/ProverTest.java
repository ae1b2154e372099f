package dev.interlock.prover;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.interlock.prover.curve.G1;
import dev.interlock.prover.curve.G2;
import dev.interlock.prover.field.Domain;
import dev.interlock.prover.field.Fr;
import dev.interlock.prover.field.FrElement;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ProverTest {
  @ParameterizedTest(name = "logN={0}, publicInputs={1}")
  @CsvSource({"4,1", "5,2", "6,3", "7,1", "8,2"})
  void proofsVerify(int logN, int publicInputs) {
    SplittableRandom rnd = Groth16TestSupport.random("ProverTest.proofsVerify/" + logN + "/" + publicInputs, 1000 + logN);
    Circuit circuit = Circuit.synthetic(logN, publicInputs, rnd.nextLong());
    Keys keys = Groth16TestSupport.keys(circuit);
    for (int k = 0; k < 2; k++) {
      Witness w = circuit.witness(rnd);
      Proof proof = Prover.prove(keys.pk(), circuit, w, rnd);
      assertThat(Verifier.verify(keys.vk(), proof, w.publicInputs())).isTrue();
      assertThat(Proof.deserialize(proof.serialize())).isEqualTo(proof);
      assertThat(proof.serialize()).hasSize(192);
    }
  }

  @Test
  void tamperedProofsFail() {
    SplittableRandom rnd = Groth16TestSupport.random("ProverTest.tamperedProofsFail", 2);
    Circuit circuit = Circuit.synthetic(6, 2, 77);
    Keys keys = Groth16TestSupport.keys(circuit);
    Witness w = circuit.witness(rnd);
    Proof proof = Prover.prove(keys.pk(), circuit, w, rnd);
    List<FrElement> inputs = w.publicInputs();
    VerifyingKey vk = keys.vk();
    assertThat(Verifier.verify(vk, proof, inputs)).isTrue();

    G1 otherG1 = G1.generator().mul(FrElement.random(rnd).toBigInteger());
    G2 otherG2 = G2.generator().mul(FrElement.random(rnd).toBigInteger());
    assertThat(Verifier.verify(vk, new Proof(otherG1, proof.b(), proof.c()), inputs)).isFalse();
    assertThat(Verifier.verify(vk, new Proof(proof.a(), otherG2, proof.c()), inputs)).isFalse();
    assertThat(Verifier.verify(vk, new Proof(proof.a(), proof.b(), otherG1), inputs)).isFalse();
    assertThat(Verifier.verify(vk, new Proof(proof.c(), proof.b(), proof.a()), inputs)).isFalse();
    for (int i = 0; i < inputs.size(); i++) {
      List<FrElement> changed = new ArrayList<>(inputs);
      changed.set(i, changed.get(i).add(FrElement.ONE));
      assertThat(Verifier.verify(vk, proof, changed)).as("input %d changed", i).isFalse();
    }
    // a second, valid proof for different inputs does not verify against the first inputs
    Witness w2 = circuit.witness(rnd);
    Proof proof2 = Prover.prove(keys.pk(), circuit, w2, rnd);
    assertThat(Verifier.verify(vk, proof2, w2.publicInputs())).isTrue();
    assertThat(Verifier.verify(vk, proof2, inputs)).isFalse();
  }

  @Test
  void proofsFromAnotherKeyOrCircuitFail() {
    SplittableRandom rnd = Groth16TestSupport.random("ProverTest.proofsFromAnotherKeyOrCircuitFail", 3);
    Circuit circuit = Circuit.synthetic(5, 1, 11);
    Keys keys = Groth16TestSupport.keys(circuit);
    Keys otherKeys = Setup.generate(circuit, rnd); // same circuit, other toxic waste
    Circuit otherCircuit = Circuit.synthetic(5, 1, 12); // same shape, other structure
    Keys otherCircuitKeys = Groth16TestSupport.keys(otherCircuit);
    Witness w = circuit.witness(rnd);
    Proof fromOtherKey = Prover.prove(otherKeys.pk(), circuit, w, rnd);
    assertThat(Verifier.verify(otherKeys.vk(), fromOtherKey, w.publicInputs())).isTrue();
    assertThat(Verifier.verify(keys.vk(), fromOtherKey, w.publicInputs())).isFalse();
    Witness ow = otherCircuit.witness(w.publicInputs(), rnd);
    Proof fromOtherCircuit = Prover.prove(otherCircuitKeys.pk(), otherCircuit, ow, rnd);
    assertThat(Verifier.verify(otherCircuitKeys.vk(), fromOtherCircuit, w.publicInputs())).isTrue();
    assertThat(Verifier.verify(keys.vk(), fromOtherCircuit, w.publicInputs())).isFalse();
    assertThatThrownBy(() -> Prover.prove(keys.pk(), otherCircuit, ow, rnd))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("proving key is for circuit");
  }

  @Test
  void wrongNumberOfInputsIsRejected() {
    SplittableRandom rnd = Groth16TestSupport.random("ProverTest.wrongNumberOfInputsIsRejected", 4);
    Circuit circuit = Circuit.synthetic(4, 2, 5);
    Keys keys = Groth16TestSupport.keys(circuit);
    Witness w = circuit.witness(rnd);
    Proof proof = Prover.prove(keys.pk(), circuit, w, rnd);
    assertThatThrownBy(() -> Verifier.verify(keys.vk(), proof, w.publicInputs().subList(0, 1)))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("takes 2 public inputs, got 1");
    List<FrElement> three = new ArrayList<>(w.publicInputs());
    three.add(FrElement.ONE);
    assertThatThrownBy(() -> Verifier.verify(keys.vk(), proof, three)).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void stageByStageEqualsProve() {
    SplittableRandom rnd = Groth16TestSupport.random("ProverTest.stageByStageEqualsProve", 5);
    Circuit circuit = Circuit.synthetic(7, 3, 99);
    Keys keys = Groth16TestSupport.keys(circuit);
    Witness w = circuit.witness(rnd);
    long rngSeed = rnd.nextLong();
    Proof whole = Prover.prove(keys.pk(), circuit, w, new SplittableRandom(rngSeed));

    Synthesized s = Prover.synthesize(circuit, w);
    long[] h = Prover.computeH(s);
    assertThat(s.isAvailable()).isFalse();
    assertThatThrownBy(() -> Prover.computeH(s)).isInstanceOf(IllegalStateException.class);
    MsmResults msm = Prover.msm(keys.pk(), w, h);
    G2 bG2 = Prover.bG2Msm(keys.pk(), w);
    Proof staged = Prover.epilogue(keys.pk(), msm, bG2, new SplittableRandom(rngSeed));
    assertThat(staged).isEqualTo(whole);
    assertThat(Verifier.verify(keys.vk(), staged, w.publicInputs())).isTrue();
  }

  @Test
  void hSatisfiesTheQuotientIdentityAtARandomPoint() {
    SplittableRandom rnd = Groth16TestSupport.random("ProverTest.hSatisfiesTheQuotientIdentityAtARandomPoint", 6);
    for (int logN = 4; logN <= 9; logN++) {
      Circuit circuit = Circuit.synthetic(logN, 1 + logN % 3, rnd.nextLong());
      Witness w = circuit.witness(rnd);
      Synthesized s = Prover.synthesize(circuit, w);
      // A, B, C coefficients by inverse NTT of copies
      long[] ac = s.a().clone();
      long[] bc = s.b().clone();
      long[] cc = s.c().clone();
      Domain d = Domain.of(logN);
      d.inverse(ac);
      d.inverse(bc);
      d.inverse(cc);
      long[] h = Prover.computeH(s);
      assertThat(Fr.size(h)).isEqualTo(circuit.size() - 1);
      FrElement x = FrElement.random(rnd);
      FrElement lhs = eval(ac, x).mul(eval(bc, x)).sub(eval(cc, x));
      FrElement rhs = eval(h, x).mul(d.vanishing(x));
      assertThat(lhs).as("logN=%d", logN).isEqualTo(rhs);
      // and the interpolations really pass through the evaluations: A(ω^i) = a_i
      Synthesized again = Prover.synthesize(circuit, w);
      int i = rnd.nextInt(circuit.size());
      assertThat(eval(ac, d.element(i))).isEqualTo(FrElement.read(again.a(), i));
    }
  }

  @Test
  void unsatisfyingWitnessIsRejectedByTheHStage() {
    SplittableRandom rnd = Groth16TestSupport.random("ProverTest.unsatisfyingWitnessIsRejectedByTheHStage", 7);
    Circuit circuit = Circuit.synthetic(6, 1, 3);
    Witness w = circuit.witness(rnd);
    Witness bad = w.with(circuit.numVariables() - 5, FrElement.random(rnd));
    assertThat(circuit.isSatisfied(bad)).isFalse();
    Synthesized s = Prover.synthesize(circuit, bad);
    assertThatThrownBy(() -> Prover.computeH(s))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("does not satisfy");
  }

  /** Horner evaluation of a coefficient vector at x. */
  static FrElement eval(long[] coeffs, FrElement x) {
    FrElement acc = FrElement.ZERO;
    for (int i = Fr.size(coeffs) - 1; i >= 0; i--) {
      acc = acc.mul(x).add(FrElement.read(coeffs, i));
    }
    return acc;
  }
}
