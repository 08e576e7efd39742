/** The current user's query lives with the other account queries; imported from here by the HTTP routes. */
export { type CurrentUser, currentUser } from './queries.ts';
