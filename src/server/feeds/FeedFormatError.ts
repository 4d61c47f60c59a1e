/** The body is not the declared format (or is an error page): the run fails and nothing changes. */
export class FeedFormatError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'FeedFormatError'
  }
}
