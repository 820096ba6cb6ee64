package dev.handoff.clickhouse.http.internal;

import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import javax.net.ssl.KeyManager;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLContextSpi;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLServerSocketFactory;
import javax.net.ssl.SSLSessionContext;
import javax.net.ssl.SSLSocketFactory;
import javax.net.ssl.TrustManager;

/**
 * The JDK's default TLS context, made only when a connection first needs it.
 *
 * <p>The JDK's {@link java.net.http.HttpClient} takes {@link SSLContext#getDefault()} when it is
 * built, which loads the trust store and parses its certificates: about a tenth of a second of CPU
 * in every client, also where every request is plain {@code http://}. A client built with {@link
 * #context()} and {@link #parameters()} behaves as one built with the defaults (each call goes to
 * the default context, the same object the JDK would have used) but pays for TLS only at its
 * first {@code https://} connection.
 */
final class LazyTls extends SSLContextSpi {

  private LazyTls() {}

  /** Returns a context whose every operation is that of {@link SSLContext#getDefault()}. */
  static SSLContext context() {
    return new SSLContext(new LazyTls(), null, "Default") {};
  }

  /**
   * Returns the parameters to build the client with: none set, so each connection's engine keeps
   * the default context's own (cipher suites, protocols), as with the defaults. The client adds
   * the host name check and the server name itself. (Given to the client builder so that it does
   * not ask the context for its default parameters, which would make the context at once.)
   */
  static SSLParameters parameters() {
    return new SSLParameters();
  }

  private static SSLContext tls() {
    try {
      return SSLContext.getDefault();
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("no default TLS context: " + e.getMessage(), e);
    }
  }

  @Override
  protected void engineInit(KeyManager[] km, TrustManager[] tm, SecureRandom sr) {
    throw new UnsupportedOperationException("the default TLS context cannot be initialized");
  }

  @Override
  protected SSLSocketFactory engineGetSocketFactory() {
    return tls().getSocketFactory();
  }

  @Override
  protected SSLServerSocketFactory engineGetServerSocketFactory() {
    return tls().getServerSocketFactory();
  }

  @Override
  protected SSLEngine engineCreateSSLEngine() {
    return tls().createSSLEngine();
  }

  @Override
  protected SSLEngine engineCreateSSLEngine(String host, int port) {
    return tls().createSSLEngine(host, port);
  }

  @Override
  protected SSLSessionContext engineGetServerSessionContext() {
    return tls().getServerSessionContext();
  }

  @Override
  protected SSLSessionContext engineGetClientSessionContext() {
    return tls().getClientSessionContext();
  }

  @Override
  protected SSLParameters engineGetDefaultSSLParameters() {
    return tls().getDefaultSSLParameters();
  }

  @Override
  protected SSLParameters engineGetSupportedSSLParameters() {
    return tls().getSupportedSSLParameters();
  }
}
