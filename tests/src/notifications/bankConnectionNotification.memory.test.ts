import { PortsMemory } from "@svc/adapters-memory"
import { bankConnectionNotificationSuite } from "./BankConnectionNotificationSuite.ts"

bankConnectionNotificationSuite("memory", PortsMemory)
