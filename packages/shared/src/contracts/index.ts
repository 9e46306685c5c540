import type { Contract } from '../contract.ts';
import { collectionsApi } from './personal.ts';

export * from './personal.ts';

/** Every route contract, for the check that the server serves each one. */
export const allContracts: readonly Contract[] = [collectionsApi].flatMap((group) => Object.values(group));
