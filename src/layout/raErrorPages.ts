export { AuthenticationError } from 'react-admin';
