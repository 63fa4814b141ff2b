export * from '@bop/test-support';
