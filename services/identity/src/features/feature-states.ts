import { features, featureChain } from '@bop/contracts';

export interface FeatureState {
  key: string;
  label: string;
  parent: string | null;
  planned: boolean;
  /** this switch itself */
  enabled: boolean;
  /** this switch and every ancestor are on */
  effective: boolean;
}

/** Every feature of the catalogue with its state; features without a stored switch are on. */
export function featureStates(switches: ReadonlyMap<string, boolean>): FeatureState[] {
  const own = (key: string) => switches.get(key) ?? true;
  return features.map((f) => ({
    key: f.key,
    label: f.label,
    parent: f.parent,
    planned: f.planned ?? false,
    enabled: own(f.key),
    effective: featureChain(f.key).every(own),
  }));
}

export function isKnownFeature(key: string): boolean {
  return features.some((f) => f.key === key);
}

/** The nearest ancestor that is off, which keeps `key` from being switched on; null when none. */
export function blockingAncestor(key: string, switches: ReadonlyMap<string, boolean>): string | null {
  for (const k of featureChain(key).slice(1)) if (switches.get(k) === false) return k;
  return null;
}
