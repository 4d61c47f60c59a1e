/**
 * A refused member-administration request, worded once and answered in the shape of the route
 * that met it: the data API's `{error, parameter?, message}` or the identity provider's Stytch
 * error (sdkMemberRoutes).
 */
export class AdminError extends Error {
  constructor(
    readonly statusCode: 400 | 401 | 403 | 404 | 409,
    readonly code: 'bad_request' | 'unauthorized' | 'forbidden' | 'not_found' | 'conflict',
    message: string,
    readonly parameter?: string,
  ) {
    super(message)
    this.name = 'AdminError'
  }
}

export const adminErrors = {
  forbidden: (resource: string, action: string) =>
    new AdminError(403, 'forbidden', `Your roles do not grant ${resource}:${action}.`),
  badRequest: (parameter: string, message: string) => new AdminError(400, 'bad_request', message, parameter),
  memberNotFound: (parameter = 'member_id') =>
    new AdminError(404, 'not_found', 'No such member in this organization.', parameter),
  conflict: (message: string) => new AdminError(409, 'conflict', message),
}
