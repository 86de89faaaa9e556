// Compiled policies and their catalog views, by the content of the policy config. A runtime that resolves its
// policy per run hands the host a new config object with the same rules each time; keyed by object, every such
// session would filter the whole catalog again (bench/RESULTS.md has what that cost). Keyed by the config's
// canonical content (the policy package owns that key), they share one compiled policy and one view per scope.
import type { CatalogView, ViewOptions } from '@tool-search/catalog';
import { canonicalizePolicyConfig, createPolicy, type Policy, type PolicyConfig, type PolicyContext } from '@tool-search/policy';
import type { Logger } from 'pino';

/** Views (and compiled policies) a host keeps by policy content unless told otherwise. */
export const DEFAULT_POLICY_CACHE_SIZE = 64;

/** One policy config's content: its canonical copy and key, and the compiled policy every session of it shares. */
export interface PolicyByContent {
  /** The validated, frozen copy the key names: compile a session's own policy from this, never from the input. */
  readonly config: PolicyConfig;
  readonly key: string;
  /** Compiled once per content; only for views (its log has no session). */
  readonly shared: Policy;
}

/** What `HostStatus.policyCache` reports. */
export interface PolicyCacheStatus {
  /** Compiled policies kept by content now. */
  policies: number;
  /** Views kept by content now. */
  views: number;
  /** The most of each kept (`policyCacheSize`). */
  capacity: number;
}

/** A least-recently-used cache of compiled policies and of views, each bounded by `capacity` (0: nothing kept). */
export class PolicyCache {
  private readonly policies = new Map<string, Policy>();
  private readonly views = new Map<string, CatalogView>();

  constructor(
    private readonly options: {
      capacity: number;
      logger: Logger;
      /** Builds an uncached view of the host catalog for one policy and context. */
      buildView(policy: Policy, context: PolicyContext, limits: ViewOptions): CatalogView;
    },
  ) {}

  /** Validates a config (a `PolicyError` naming the path when it is invalid) and finds or compiles its shared policy. */
  resolve(input: unknown): PolicyByContent {
    const { config, key } = canonicalizePolicyConfig(input);
    let shared = this.take(this.policies, key);
    if (shared === undefined) {
      shared = createPolicy(config, { logger: this.options.logger });
      this.keep(this.policies, key, shared);
    }
    return { config, key, shared };
  }

  /**
   * The view of one content for one context. Keyed by the content, the shared policy's scope key (which layers
   * apply, and whether the caller is the owner) and the limits: everything the view's admission reads from outside
   * the catalog. The scope key starts with the shared policy's own serial, so a view is only found for the object
   * it was built with, even after that policy left the cache and the content was compiled again.
   */
  view(policy: PolicyByContent, context: PolicyContext, limits: ViewOptions): CatalogView {
    const key = `${policy.key}\u0000${policy.shared.scopeKey(context)}\u0000${limits.searchDefaultLimit ?? ''}|${limits.maxSearchLimit ?? ''}`;
    let view = this.take(this.views, key);
    if (view === undefined) {
      view = this.options.buildView(policy.shared, context, limits);
      this.keep(this.views, key, view);
    }
    return view;
  }

  status(): PolicyCacheStatus {
    return { policies: this.policies.size, views: this.views.size, capacity: this.options.capacity };
  }

  /** The entry, moved to the most recently used end. */
  private take<T>(map: Map<string, T>, key: string): T | undefined {
    const value = map.get(key);
    if (value !== undefined) {
      map.delete(key);
      map.set(key, value);
    }
    return value;
  }

  private keep<T>(map: Map<string, T>, key: string, value: T): void {
    if (this.options.capacity === 0) return;
    map.set(key, value);
    if (map.size > this.options.capacity) map.delete(map.keys().next().value as string);
  }
}
