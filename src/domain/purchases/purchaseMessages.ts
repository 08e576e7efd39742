/** The purchases feature's own words: the checkout, confirmation and repurchase answers (the UI can import them through `@shared`). */

export const PURCHASE_NOT_FOUND_MESSAGE = 'Payment not found';
export const PAYMENT_NOT_COMPLETED = 'Your payment was not completed. Please try again.';
export const PAYMENT_PENDING = 'Your payment is still being processed.';
export const PURCHASE_DETAILS_MISMATCH = 'The payment does not match this enrollment';
export const NO_TUTOR_FOR_SUBJECT =
  'No tutor teaches this subject yet, so it cannot be bought. Please choose another subject, or contact us and we will tell you when one joins.';
export const REPURCHASE_CHECKOUT_SESSION_NOT_FOUND = 'Checkout session not found';
