package dev.interlock.prover.curve;

import static dev.interlock.prover.curve.CurveTestSupport.R;
import static dev.interlock.prover.curve.CurveTestSupport.R_MINUS_1;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** G1 group laws, scalar multiplication, immutability and (de)serialization. */
@Timeout(60)
class G1Test {
  private static final int SIZE = G1.COMPRESSED_BYTES;

  /** The standard compressed generator (ZCash / IETF serialization). */
  private static final String GENERATOR_HEX =
      "97f1d3a73197d7942695638c4fa9ac0fc3688c4f9774b905a14e3a3f171bac586c55e83ff97a1aeffb3af00adb22c6bb";

  private final Random rnd = CurveTestSupport.random("G1Test", 0x61_5EEDL);

  private G1 random() {
    return CurveTestSupport.g1(rnd);
  }

  @Test
  void generatorAndIdentity() {
    assertThat(HexFormat.of().formatHex(G1.generator().serialize())).isEqualTo(GENERATOR_HEX);
    assertThat(G1.generator().isIdentity()).isFalse();
    assertThat(G1.identity().isIdentity()).isTrue();
    byte[] inf = new byte[SIZE];
    inf[0] = (byte) 0xc0;
    assertThat(G1.identity().serialize()).isEqualTo(inf);
    assertThat(G1.generator().add(G1.identity())).isEqualTo(G1.generator());
    assertThat(G1.identity().add(G1.generator())).isEqualTo(G1.generator());
    assertThat(G1.identity().neg()).isEqualTo(G1.identity());
    assertThat(G1.identity().dbl()).isEqualTo(G1.identity());
    assertThat(G1.generator()).isNotEqualTo(G1.identity());
    assertThat(G1.identity().toString()).isEqualTo("G1(identity)");
    assertThat(G1.generator().toString()).isEqualTo("G1(" + GENERATOR_HEX.substring(0, 16) + "…)");
  }

  @Test
  void groupLawsOnRandomPoints() {
    for (int i = 0; i < 20; i++) {
      G1 p = random();
      G1 q = random();
      G1 s = random();
      assertThat(p.add(q).add(s)).isEqualTo(p.add(q.add(s)));
      assertThat(p.add(q)).isEqualTo(q.add(p));
      assertThat(p.add(p.neg()).isIdentity()).isTrue();
      assertThat(p.sub(p).isIdentity()).isTrue();
      assertThat(p.sub(q)).isEqualTo(p.add(q.neg()));
      assertThat(p.sub(q).add(q)).isEqualTo(p);
      assertThat(p.dbl()).isEqualTo(p.add(p));
      assertThat(p.neg().neg()).isEqualTo(p);
      assertThat(p.add(G1.identity())).isEqualTo(p);
      assertThat(p.add(q)).isNotEqualTo(p);
      assertThat(p.isIdentity()).isFalse();
    }
  }

  @Test
  void scalarMultiplicationIsLinearModR() {
    for (int i = 0; i < 10; i++) {
      G1 p = random();
      BigInteger a = CurveTestSupport.scalar(rnd);
      BigInteger b = CurveTestSupport.scalar(rnd);
      assertThat(p.mul(a).add(p.mul(b))).isEqualTo(p.mul(a.add(b).mod(R)));
      assertThat(p.mul(a).mul(b)).isEqualTo(p.mul(a.multiply(b).mod(R)));
      assertThat(p.mul(Scalars.toLittleEndianBytes(a))).isEqualTo(p.mul(a));
      assertThat(p.mul(a.add(R))).isEqualTo(p.mul(a)); // BigInteger scalars are reduced mod r
      assertThat(p.mul(a.negate())).isEqualTo(p.mul(a).neg());
    }
  }

  @Test
  void smallMultiplesAreRepeatedAdditions() {
    G1 p = random();
    G1 sum = G1.identity();
    for (int k = 0; k <= 12; k++) {
      assertThat(p.mul(BigInteger.valueOf(k))).as("k=%d", k).isEqualTo(sum);
      byte[] le = new byte[32];
      le[0] = (byte) k;
      assertThat(p.mul(le)).as("k=%d bytes", k).isEqualTo(sum);
      sum = sum.add(p);
    }
  }

  @Test
  void theGroupHasOrderR() {
    for (G1 p : List.of(G1.generator(), random(), random())) {
      // (r-1) * P is computed by blst as given (it is canonical), so this checks r * P = 0
      assertThat(p.mul(R_MINUS_1)).isEqualTo(p.neg());
      assertThat(p.mul(R_MINUS_1).add(p).isIdentity()).isTrue();
      // (r+1)/2 * P doubled is (r+1) * P = P
      assertThat(p.mul(R.add(BigInteger.ONE).shiftRight(1)).dbl()).isEqualTo(p);
      assertThat(p.mul(R).isIdentity()).isTrue();
      assertThat(p.mul(BigInteger.ZERO).isIdentity()).isTrue();
      assertThat(p.mul(new byte[32]).isIdentity()).isTrue();
    }
  }

  @Test
  void byteScalarsMustBeCanonical() {
    G1 p = G1.generator();
    assertThatThrownBy(() -> p.mul(Scalars.toLittleEndianBytes(R)))
        .isInstanceOf(IllegalArgumentException.class);
    byte[] r = new byte[32];
    byte[] rBe = R.toByteArray();
    for (int i = 0; i < 32; i++) {
      r[i] = rBe[rBe.length - 1 - i];
    }
    assertThatThrownBy(() -> p.mul(r))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("not canonical");
    byte[] max = new byte[32];
    Arrays.fill(max, (byte) 0xff);
    assertThatThrownBy(() -> p.mul(max)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> p.mul(new byte[31]))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("32 bytes");
    byte[] rMinus1 = Scalars.toLittleEndianBytes(R_MINUS_1);
    assertThat(p.mul(rMinus1)).isEqualTo(p.neg());
  }

  @Test
  void valuesAreImmutable() {
    G1 p = random();
    G1 q = random();
    byte[] before = p.serialize();
    G1 unused = p.add(q).neg().dbl().sub(q).mul(BigInteger.valueOf(7)).mul(new byte[32]);
    assertThat(unused.isIdentity()).isTrue();
    p.add(p);
    p.dbl();
    p.neg();
    q.sub(p);
    assertThat(p.serialize()).isEqualTo(before);
    byte[] leaked = p.serialize();
    leaked[5] ^= 1;
    assertThat(p.serialize()).isEqualTo(before);
    G1 g = G1.generator();
    g.dbl();
    g.add(g);
    assertThat(HexFormat.of().formatHex(G1.generator().serialize())).isEqualTo(GENERATOR_HEX);
  }

  @Test
  void serializationRoundTripsAndDefinesEquality() {
    List<G1> points = new ArrayList<>(List.of(G1.identity(), G1.generator(), G1.generator().neg()));
    for (int i = 0; i < 20; i++) {
      points.add(random());
    }
    Set<G1> set = new HashSet<>();
    for (G1 p : points) {
      byte[] bytes = p.serialize();
      assertThat(bytes).hasSize(SIZE);
      assertThat(bytes[0] & 0x80).isEqualTo(0x80);
      G1 back = G1.deserialize(bytes);
      assertThat(back).isEqualTo(p);
      assertThat(back.hashCode()).isEqualTo(p.hashCode());
      assertThat(back.serialize()).isEqualTo(bytes);
      // equal values built differently (jacobian vs affine origin) are equal
      assertThat(back.add(G1.identity())).isEqualTo(p);
      set.add(p);
      set.add(back);
    }
    assertThat(set).hasSize(points.size());
    // a point and its negation differ only in the sign bit
    byte[] g = G1.generator().serialize();
    byte[] ng = G1.generator().neg().serialize();
    assertThat(g[0] ^ ng[0]).isEqualTo(0x20);
    assertThat(Arrays.copyOfRange(g, 1, SIZE)).isEqualTo(Arrays.copyOfRange(ng, 1, SIZE));
  }

  @Test
  void deserializeRejectsWrongLengthsAndFlags() {
    for (int len : new int[] {0, 1, SIZE - 1, SIZE + 1, 2 * SIZE}) {
      assertThatThrownBy(() -> G1.deserialize(new byte[len]))
          .as("length %d", len)
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("expected " + SIZE + " compressed bytes, got " + len);
    }
    byte[] noFlag = G1.generator().serialize();
    noFlag[0] &= 0x7f;
    assertThatThrownBy(() -> G1.deserialize(noFlag))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("compression flag");
    assertThatThrownBy(() -> G1.deserialize(new byte[SIZE]))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("compression flag");
    byte[] infGarbage = new byte[SIZE];
    infGarbage[0] = (byte) 0xc0;
    infGarbage[SIZE - 1] = 1;
    assertThatThrownBy(() -> G1.deserialize(infGarbage))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("identity");
    byte[] infSign = new byte[SIZE];
    infSign[0] = (byte) 0xe0;
    assertThatThrownBy(() -> G1.deserialize(infSign))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("identity");
    byte[] xTooBig = new byte[SIZE];
    Arrays.fill(xTooBig, (byte) 0xff);
    xTooBig[0] = (byte) 0x9f; // flags 100, x = 2^381 - 1 > p
    assertThatThrownBy(() -> G1.deserialize(xTooBig))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("G1 point");
    assertThatThrownBy(() -> G1.deserialize(null)).isInstanceOf(NullPointerException.class);
  }

  @Test
  void deserializeRejectsOffCurveAndOutOfSubgroupPoints() {
    // x = generator's x with its last byte changed: about half such x have no y on the curve,
    // and the others give curve points that are almost surely outside the order-r subgroup
    byte[] g = G1.generator().serialize();
    int offCurve = 0;
    int outOfGroup = 0;
    for (int v = 0; v < 64; v++) {
      byte[] bytes = g.clone();
      bytes[SIZE - 1] = (byte) v;
      if (Arrays.equals(bytes, g)) {
        continue;
      }
      try {
        G1.deserialize(bytes);
        throw new AssertionError("accepted " + HexFormat.of().formatHex(bytes));
      } catch (IllegalArgumentException e) {
        if (e.getMessage().contains("not on the curve")) {
          offCurve++;
        } else if (e.getMessage().contains("not in the prime-order subgroup")) {
          outOfGroup++;
        } else {
          throw new AssertionError("unexpected message: " + e.getMessage(), e);
        }
      }
    }
    assertThat(offCurve).isPositive();
    assertThat(outOfGroup).isPositive();
    assertThat(offCurve + outOfGroup).isEqualTo(64);
  }
}
