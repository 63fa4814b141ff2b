export * from './endpoint';
export * from './delivery';
export * from './integration';
export * from './feature-state';
