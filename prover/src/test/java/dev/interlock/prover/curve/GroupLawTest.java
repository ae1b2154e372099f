package dev.interlock.prover.curve;

import static dev.interlock.prover.curve.CurveTestSupport.R;
import static dev.interlock.prover.curve.CurveTestSupport.R_MINUS_1;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The group law, scalar multiplication, immutability and (de)serialization of {@link CurvePoint}, run over G1 and
 * over G2 alike: each test once per group.
 */
@Timeout(60)
class GroupLawTest {
  /**
   * One group under test.
   *
   * @param generatorHex the standard compressed generator (ZCash / IETF serialization)
   * @param seed the default seed of the group's random points (each test gets a Random of its own with it)
   */
  record Group<P extends CurvePoint<P, ?, ?>>(String name, int size, P generator, P identity,
      Function<byte[], P> decoder, String generatorHex, long seed) {
    P deserialize(byte[] bytes) {
      return decoder.apply(bytes);
    }

    Random rnd() {
      return CurveTestSupport.random("GroupLawTest " + name, seed);
    }

    /** A uniform non-identity point. */
    P random(Random rnd) {
      return generator.mul(CurveTestSupport.nonzeroScalar(rnd));
    }

    @Override
    public String toString() {
      return name;
    }
  }

  /** A test run once for each of {@link #groups()}, named by the group. */
  @Target(ElementType.METHOD)
  @Retention(RetentionPolicy.RUNTIME)
  @ParameterizedTest(name = "{0}")
  @MethodSource("groups")
  @interface EachGroup {}

  static Stream<Group<?>> groups() {
    return Stream.of(
        new Group<>("G1", G1.COMPRESSED_BYTES, G1.generator(), G1.identity(), G1::deserialize,
            "97f1d3a73197d7942695638c4fa9ac0fc3688c4f9774b905a14e3a3f171bac586c55e83ff97a1aeffb3af00adb22c6bb",
            0x61_5EEDL),
        new Group<>("G2", G2.COMPRESSED_BYTES, G2.generator(), G2.identity(), G2::deserialize,
            "93e02b6052719f607dacd3a088274f65596bd0d09920b61ab5da61bbdc7f5049334cf11213945d57e5ac7d055d042b7e"
                + "024aa2b2f08f0a91260805272dc51051c6e47ad4fa403b02b4510b647ae3d1770bac0326a805bbefd48056c8c121bdb8",
            0x62_5EEDL));
  }

  @EachGroup
  <P extends CurvePoint<P, ?, ?>> void generatorAndIdentity(Group<P> group) {
    assertThat(HexFormat.of().formatHex(group.generator().serialize())).isEqualTo(group.generatorHex());
    assertThat(group.generator().isIdentity()).isFalse();
    assertThat(group.identity().isIdentity()).isTrue();
    byte[] inf = new byte[group.size()];
    inf[0] = (byte) 0xc0;
    assertThat(group.identity().serialize()).isEqualTo(inf);
    assertThat(group.generator().add(group.identity())).isEqualTo(group.generator());
    assertThat(group.identity().add(group.generator())).isEqualTo(group.generator());
    assertThat(group.identity().neg()).isEqualTo(group.identity());
    assertThat(group.identity().dbl()).isEqualTo(group.identity());
    assertThat(group.generator()).isNotEqualTo(group.identity());
    assertThat(group.identity().toString()).isEqualTo(group.name() + "(identity)");
    assertThat(group.generator().toString())
        .isEqualTo(group.name() + "(" + group.generatorHex().substring(0, 16) + "…)");
  }

  @EachGroup
  <P extends CurvePoint<P, ?, ?>> void groupLawsOnRandomPoints(Group<P> group) {
    Random rnd = group.rnd();
    for (int i = 0; i < 20; i++) {
      P p = group.random(rnd);
      P q = group.random(rnd);
      P s = group.random(rnd);
      assertThat(p.add(q).add(s)).isEqualTo(p.add(q.add(s)));
      assertThat(p.add(q)).isEqualTo(q.add(p));
      assertThat(p.add(p.neg()).isIdentity()).isTrue();
      assertThat(p.sub(p).isIdentity()).isTrue();
      assertThat(p.sub(q)).isEqualTo(p.add(q.neg()));
      assertThat(p.sub(q).add(q)).isEqualTo(p);
      assertThat(p.dbl()).isEqualTo(p.add(p));
      assertThat(p.neg().neg()).isEqualTo(p);
      assertThat(p.add(group.identity())).isEqualTo(p);
      assertThat(p.add(q)).isNotEqualTo(p);
      assertThat(p.isIdentity()).isFalse();
    }
  }

  @EachGroup
  <P extends CurvePoint<P, ?, ?>> void scalarMultiplicationIsLinearModR(Group<P> group) {
    Random rnd = group.rnd();
    for (int i = 0; i < 10; i++) {
      P p = group.random(rnd);
      BigInteger a = CurveTestSupport.scalar(rnd);
      BigInteger b = CurveTestSupport.scalar(rnd);
      assertThat(p.mul(a).add(p.mul(b))).isEqualTo(p.mul(a.add(b).mod(R)));
      assertThat(p.mul(a).mul(b)).isEqualTo(p.mul(a.multiply(b).mod(R)));
      assertThat(p.mul(Scalars.toLittleEndianBytes(a))).isEqualTo(p.mul(a));
      assertThat(p.mul(a.add(R))).isEqualTo(p.mul(a)); // BigInteger scalars are reduced mod r
      assertThat(p.mul(a.negate())).isEqualTo(p.mul(a).neg());
    }
  }

  @EachGroup
  <P extends CurvePoint<P, ?, ?>> void smallMultiplesAreRepeatedAdditions(Group<P> group) {
    Random rnd = group.rnd();
    P p = group.random(rnd);
    P sum = group.identity();
    for (int k = 0; k <= 12; k++) {
      assertThat(p.mul(BigInteger.valueOf(k))).as("k=%d", k).isEqualTo(sum);
      byte[] le = new byte[32];
      le[0] = (byte) k;
      assertThat(p.mul(le)).as("k=%d bytes", k).isEqualTo(sum);
      sum = sum.add(p);
    }
  }

  @EachGroup
  <P extends CurvePoint<P, ?, ?>> void theGroupHasOrderR(Group<P> group) {
    Random rnd = group.rnd();
    for (P p : List.of(group.generator(), group.random(rnd), group.random(rnd))) {
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

  @EachGroup
  <P extends CurvePoint<P, ?, ?>> void byteScalarsMustBeCanonical(Group<P> group) {
    P p = group.generator();
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

  @EachGroup
  <P extends CurvePoint<P, ?, ?>> void valuesAreImmutable(Group<P> group) {
    Random rnd = group.rnd();
    P p = group.random(rnd);
    P q = group.random(rnd);
    byte[] before = p.serialize();
    P unused = p.add(q).neg().dbl().sub(q).mul(BigInteger.valueOf(7)).mul(new byte[32]);
    assertThat(unused.isIdentity()).isTrue();
    p.add(p);
    p.dbl();
    p.neg();
    q.sub(p);
    assertThat(p.serialize()).isEqualTo(before);
    byte[] leaked = p.serialize();
    leaked[5] ^= 1;
    assertThat(p.serialize()).isEqualTo(before);
    P g = group.generator();
    g.dbl();
    g.add(g);
    assertThat(HexFormat.of().formatHex(group.generator().serialize())).isEqualTo(group.generatorHex());
  }

  @EachGroup
  <P extends CurvePoint<P, ?, ?>> void serializationRoundTripsAndDefinesEquality(Group<P> group) {
    Random rnd = group.rnd();
    List<P> points = new ArrayList<>(List.of(group.identity(), group.generator(), group.generator().neg()));
    for (int i = 0; i < 20; i++) {
      points.add(group.random(rnd));
    }
    Set<P> set = new HashSet<>();
    for (P p : points) {
      byte[] bytes = p.serialize();
      assertThat(bytes).hasSize(group.size());
      assertThat(bytes[0] & 0x80).isEqualTo(0x80);
      P back = group.deserialize(bytes);
      assertThat(back).isEqualTo(p);
      assertThat(back.hashCode()).isEqualTo(p.hashCode());
      assertThat(back.serialize()).isEqualTo(bytes);
      // equal values built differently (jacobian vs affine origin) are equal
      assertThat(back.add(group.identity())).isEqualTo(p);
      set.add(p);
      set.add(back);
    }
    assertThat(set).hasSize(points.size());
    // a point and its negation differ only in the sign bit
    byte[] g = group.generator().serialize();
    byte[] ng = group.generator().neg().serialize();
    assertThat(g[0] ^ ng[0]).isEqualTo(0x20);
    assertThat(Arrays.copyOfRange(g, 1, group.size())).isEqualTo(Arrays.copyOfRange(ng, 1, group.size()));
  }

  @EachGroup
  <P extends CurvePoint<P, ?, ?>> void deserializeRejectsWrongLengthsAndFlags(Group<P> group) {
    for (int len : new int[] {0, 1, group.size() - 1, group.size() + 1, 2 * group.size()}) {
      assertThatThrownBy(() -> group.deserialize(new byte[len]))
          .as("length %d", len)
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("expected " + group.size() + " compressed bytes, got " + len);
    }
    byte[] noFlag = group.generator().serialize();
    noFlag[0] &= 0x7f;
    assertThatThrownBy(() -> group.deserialize(noFlag))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("compression flag");
    assertThatThrownBy(() -> group.deserialize(new byte[group.size()]))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("compression flag");
    byte[] infGarbage = new byte[group.size()];
    infGarbage[0] = (byte) 0xc0;
    infGarbage[group.size() - 1] = 1;
    assertThatThrownBy(() -> group.deserialize(infGarbage))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("identity");
    byte[] infSign = new byte[group.size()];
    infSign[0] = (byte) 0xe0;
    assertThatThrownBy(() -> group.deserialize(infSign))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("identity");
    byte[] xTooBig = new byte[group.size()];
    Arrays.fill(xTooBig, 0, G1.COMPRESSED_BYTES, (byte) 0xff);
    xTooBig[0] = (byte) 0x9f; // flags 100, x (G1) or x.c1 (G2) = 2^381 - 1 > p
    assertThatThrownBy(() -> group.deserialize(xTooBig))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining(group.name() + " point");
    assertThatThrownBy(() -> group.deserialize(null)).isInstanceOf(NullPointerException.class);
  }

  @EachGroup
  <P extends CurvePoint<P, ?, ?>> void deserializeRejectsOffCurveAndOutOfSubgroupPoints(Group<P> group) {
    // x = generator's x with its last byte changed: about half such x have no y on the curve,
    // and the others give curve points that are almost surely outside the order-r subgroup
    byte[] g = group.generator().serialize();
    int offCurve = 0;
    int outOfGroup = 0;
    for (int v = 0; v < 64; v++) {
      byte[] bytes = g.clone();
      bytes[group.size() - 1] = (byte) v;
      if (Arrays.equals(bytes, g)) {
        continue;
      }
      try {
        group.deserialize(bytes);
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
