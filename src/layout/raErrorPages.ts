export { AuthenticationError, Error } from 'react-admin';
