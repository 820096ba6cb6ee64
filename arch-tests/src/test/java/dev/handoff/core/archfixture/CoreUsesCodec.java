package dev.handoff.core.archfixture;

import net.jpountz.lz4.LZ4Factory;

/** Test fixture: a core class that compresses with lz4-java (only the HTTP writer may). */
public final class CoreUsesCodec {
  int f(byte[] b) {
    return LZ4Factory.fastestInstance().fastCompressor().maxCompressedLength(b.length);
  }
}
