// The distributed mode as separate processes on Kafka with the schema registry, as docker-compose.yml
// runs it, against the test run's broker and registry (distributed-suite.ts).
import { distributedSuite } from './distributed-suite';

distributedSuite({ bus: 'kafka' });
