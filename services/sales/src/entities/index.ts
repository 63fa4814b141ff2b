export * from './transaction';
export * from './location';
