/**
 * ClickHouse's hash functions in Java, bit for bit as ClickHouse 18.16 computes them: the raw
 * algorithms ({@link dev.handoff.clickhouse.hash.CityHash} v1.0.2 with its 128-bit variant,
 * SipHash, MurmurHash3, xxHash64 and intHash64), and the SQL functions over typed arguments that
 * sharding keys of {@code Distributed} tables use.
 */
package dev.handoff.clickhouse.hash;
