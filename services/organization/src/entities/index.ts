export * from './location';
export * from './org-unit';
export * from './department';
