// The distributed mode as separate processes on the Postgres bus (distributed-suite.ts).
import { distributedSuite } from './distributed-suite';

distributedSuite({ bus: 'postgres' });
