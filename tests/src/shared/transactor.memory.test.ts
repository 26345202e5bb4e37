import { PortsMemory } from "@svc/adapters-memory"
import { transactorContract } from "./TransactorContract.ts"

transactorContract("in-memory", PortsMemory)
