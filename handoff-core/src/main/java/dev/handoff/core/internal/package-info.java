/**
 * Implementation details of the core: the built-in routers and their providers, the rate limiter
 * for warnings. Not exported; nothing here is API.
 */
package dev.handoff.core.internal;
