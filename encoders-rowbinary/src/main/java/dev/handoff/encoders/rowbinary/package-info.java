/** Options of the {@code rowbinary} encoder; the implementation is not exported. */
package dev.handoff.encoders.rowbinary;
