import type { AccountHandlers } from '../../../commands/accounts/accountDeps.ts';
import { studentAccess } from '../../kit/studentAccess.ts';

/** Who may buy or read a student's purchases, shared by the checkout and repurchase routes. The amounts' check lives with the process (commands/purchases/checkoutTerms.ts). */
export { AMOUNT_MISMATCH } from '../../../commands/purchases/checkoutTerms.ts';

/** The account-holder rule over the student's stream (an erased profile is unknown): `act` to buy, `read` for a purchase's status. */
export function holderCheck(students: Pick<AccountHandlers, 'students'>['students']) {
  return studentAccess(async (studentId) => {
    const student = await students.load(studentId);
    return student.exists && !student.erased && student.userId ? { userId: student.userId, parentId: student.parentId } : null;
  });
}
