/** The SDK's `error_type` of a failed call, if it has one. */
export function sdkErrorType(error: unknown): string | null {
  if (typeof error === 'object' && error !== null && 'error_type' in error) {
    const type = (error as { error_type: unknown }).error_type
    return typeof type === 'string' ? type : null
  }
  return null
}
