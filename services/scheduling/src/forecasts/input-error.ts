/** Malformed input (zone, dates, instants, values): the caller answers 422. */
export class ForecastInputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ForecastInputError';
  }
}
